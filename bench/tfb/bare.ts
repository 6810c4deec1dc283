// The Node floor of the TFB bench: the six test types on node:http and postgres.js
// (store.ts), by TFB's rules, with nothing between the request and the driver.
//   node bare.js --listen 127.0.0.1:PORT --db 'postgres://…/test?schema=NAME' [--stop-with-stdin]
import { createServer } from "node:http";
import type { ServerResponse } from "node:http";
import { parseBaselineArgs, stopOnSignal } from "../baselines/common.js";
import { fortunesHtml, HELLO, queriesParam, randomWorld } from "./rules.js";
import { tfbStore } from "./store.js";

const options = parseBaselineArgs(process.argv.slice(2));
const store = tfbStore(options.db);

function send(res: ServerResponse, status: number, type: string, body: string): void {
  // Node writes Date itself; TFB requires Server too.
  res.writeHead(status, { server: "node", "content-type": type, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

const json = (res: ServerResponse, value: unknown): void => send(res, 200, "application/json", JSON.stringify(value));

const server = createServer((req, res) => {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  const queries = (): number => queriesParam(new URLSearchParams(q < 0 ? "" : url.slice(q + 1)).get("queries"));
  let work: Promise<void> | undefined;
  switch (path) {
    case "/json":
      return json(res, { message: HELLO });
    case "/plaintext":
      return send(res, 200, "text/plain", HELLO);
    case "/db":
      work = store.world(randomWorld()).then((w) => json(res, w));
      break;
    case "/queries":
      work = store.worlds(queries()).then((w) => json(res, w));
      break;
    case "/updates":
      work = store.update(queries()).then((w) => json(res, w));
      break;
    case "/fortunes":
      work = store.fortunes().then((rows) => send(res, 200, "text/html; charset=utf-8", fortunesHtml(rows)));
      break;
    default:
      return send(res, 404, "text/plain", "not found");
  }
  work.catch((error: Error) => {
    console.error(error);
    if (!res.headersSent) send(res, 500, "text/plain", "internal error");
  });
});

server.listen(options.port, options.host);
server.on("error", (error) => {
  console.error(`tfb bare: cannot listen on ${options.host}:${options.port}: ${error.message}`);
  process.exit(1);
});
stopOnSignal(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await store.close();
}, options.stopWithStdin);
