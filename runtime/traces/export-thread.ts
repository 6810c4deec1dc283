// The thread the OTLP/HTTP transport runs on (export.ts: threadSend). Sending a batch from the
// serving thread ran Node's HTTP client there, and its requests and responses share stream and
// HTTP code with the server's: the server's optimized code saw the client's objects too and
// went megamorphic, a cost every request then paid, besides the send itself, which is cold
// code run once per batch. Here the transport has an isolate of its own.

import { parentPort } from "node:worker_threads";
import { keepTickShapes } from "../lang/tick-shapes.js";
import { otlpHttpSend } from "./transport.js";

/** What the serving thread sends: a batch to send, or the end. */
export type ToThread = { id: number; request: Uint8Array; spans: number } | { shutdown: true };
/** What this thread answers: a batch sent (or given up), a warning to log, or done. */
export type FromThread = { sent: number } | { warn: string; fields: Record<string, unknown> } | { closed: true };

const port = parentPort;
if (port !== null) {
  // An isolate of its own, with tick entries of its own: their hidden classes kept as the serving thread's are.
  keepTickShapes();
  const tell = (message: FromThread) => port.postMessage(message);
  const send = otlpHttpSend({ warn: (warn, fields) => tell({ warn, fields: fields ?? {} }) });
  port.on("message", (message: ToThread) => {
    if ("shutdown" in message) {
      void Promise.resolve(send.shutdown?.())
        .catch(() => undefined)
        .then(() => tell({ closed: true }));
      return;
    }
    void send(message.request, message.spans).then(() => tell({ sent: message.id }));
  });
}
