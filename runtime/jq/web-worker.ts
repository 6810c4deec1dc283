// The thread jq-web runs on (started by runtime/jq/web.ts, and by the compiler's build-time
// check). jq-web runs synchronously and can loop forever or crash its WebAssembly instance
// for good; on a thread of its own, the server can give up on it (terminate the thread)
// without giving up its event loop, and a fresh thread is a fresh instance.
//
// It answers requests on `workerData.port` when given (the compiler waits on it
// synchronously, see compiler/jq/jq-check.ts, bumping `workerData.signal` after each
// answer) or else on the parent port. It says `ready` once jq-web has loaded, so that a
// caller's deadline measures jq's work and not the load (or `unavailable` if it cannot load).

import { createRequire } from "node:module";
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { SvcError } from "../core/errors.js";

export interface JqWebRequest {
  id: number;
  /** The JSON input text. */
  doc: string;
  filter: string;
}

export type JqWebReply =
  | { id: number; kind: "ok"; text: string }
  /** jq refused the program (exit 3) or failed on the input (exit 5): stderr says why. */
  | { id: number; kind: "jq"; exitCode: number; stderr: string }
  /** The WebAssembly instance broke (out of bounds, abort): it must not be used again. */
  | { id: number; kind: "crash"; message: string }
  | { id: -1; kind: "ready" }
  /** jq-web cannot load here; every request is answered with this too. */
  | { id: number; kind: "unavailable"; message: string };

interface JqWebModule {
  raw(json: string, filter: string, flags: string[]): string | undefined;
}

const data = workerData as { port?: MessagePort; signal?: Int32Array } | null;
const port = data?.port ?? parentPort;
if (port === null) throw new SvcError("SVC_ERR_INTERNAL", "runtime/jq/web-worker.js runs as a worker thread");
const signal = data?.signal;

function send(reply: JqWebReply): void {
  port!.postMessage(reply);
  if (signal !== undefined) {
    Atomics.add(signal, 0, 1);
    Atomics.notify(signal, 0);
  }
}

// jq-web prints "Aborted()" and jq's stderr on the console as well; the caller gets both in
// the answer, and a server's log is JSON lines.
console.error = () => undefined;
console.warn = () => undefined;
const require = createRequire(import.meta.url);
let jq: JqWebModule | null = null;
let unavailable: string | null = null;
try {
  jq = (await (require("jq-web") as Promise<JqWebModule>)) as JqWebModule;
} catch (e) {
  unavailable = String((e as Error).message ?? e);
}
let broken: string | null = null;

port.on("message", (req: JqWebRequest) => {
  if (jq === null) {
    send({ id: req.id, kind: "unavailable", message: unavailable ?? "jq-web did not load" });
    return;
  }
  if (broken !== null) {
    send({ id: req.id, kind: "crash", message: broken });
    return;
  }
  try {
    send({ id: req.id, kind: "ok", text: jq.raw(req.doc, req.filter, ["-c"]) ?? "" });
  } catch (e) {
    const err = e as { exitCode?: unknown; stderr?: unknown; message?: unknown };
    if (typeof err.exitCode === "number") {
      send({ id: req.id, kind: "jq", exitCode: err.exitCode, stderr: String(err.stderr ?? err.message ?? "") });
    } else {
      broken = String(err.message ?? e);
      send({ id: req.id, kind: "crash", message: broken });
    }
  }
});
if (jq !== null) send({ id: -1, kind: "ready" });
else send({ id: -1, kind: "unavailable", message: unavailable ?? "jq-web did not load" });
