// `--metrics-listen`: /metrics on an address of its own (an internal interface, another port),
// for a scraper that cannot reach the server from loopback and no token to give it. Only
// `GET /metrics` is answered there; nothing of the app is.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sendError } from "../core/answer/index.js";
import { HttpError, StartupError } from "../core/errors.js";
import type { Logger } from "../core/log.js";
import { parseListen } from "./options.js";
import type { Metrics } from "../metrics/index.js";

/** Listens on `address`; throws StartupError when it cannot. Resolves with the server and the port it got. */
export function listenMetrics(metrics: Metrics, address: string, log: Logger): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    const answered = path === metrics.path ? metrics.scrape(req, res) : Promise.reject(new HttpError(404, "not found", { code: "SVC_ERR_NOT_FOUND" }));
    answered.catch((err: unknown) => sendError(res, err, log, { path }));
  });
  const { host, port } = parseListen(address, "--metrics-listen");
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      reject(new StartupError("SVC_ERR_LISTEN", `cannot listen on ${address} (--metrics-listen): ${err.code === "EADDRINUSE" ? "the address is in use" : err.message}`));
    });
    server.listen(port, host, () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}
