// The request handler: request id → /health → router → arguments → endpoint → envelope.
// Every failure becomes an envelope (envelope.ts) and the server keeps serving.
//
// Where arguments come from: GET and DELETE take the query string (text); POST and PUT
// take the body (JSON, or a form as text). A declared route's path parameters join the
// arguments under their names, as text. When the body or query string also holds that
// name, it must carry the same value (compared as text); a different value is a 400,
// because letting either silently win would run the endpoint on an argument the caller
// did not mean.

import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { readBody } from "./body.js";
import { sendError, sendOk } from "./envelope.js";
import { HttpError } from "./errors.js";
import { HEALTH_PATH, sendHealth, type HealthInfo } from "./health.js";
import { requestIdFrom, type Logger } from "./log.js";
import { parseQueryString } from "./query-string.js";
import { Router } from "./router.js";
import type { CallInput, Database, ServerOptions, ServerSpec } from "./types.js";

/** Builds the HTTP server for `spec`; the caller listens and closes it. */
export function createServer(spec: ServerSpec, db: Database, options: ServerOptions, log: Logger): Server {
  const router = new Router(spec.staticRoutes, spec.paramRoutes);
  const health: HealthInfo = { version: spec.version, startedAt: Date.now() };
  const maxBodySize = options.maxBodySize;

  // Hot path: every request runs through here; keep it free of per-request closures,
  // URL objects and regexes.
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    res.setHeader("X-Request-Id", requestId);
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    const path = q === -1 ? target : target.slice(0, q);
    // HEAD is answered like GET; Node leaves the body out.
    const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
    try {
      if (path === HEALTH_PATH) {
        if (method !== "GET") throw new HttpError(405, "method not allowed", { headers: { Allow: "GET" } });
        if (!server.listening) closeAfterResponse(res);
        await sendHealth(res, db, health, log);
      } else {
        const match = router.match(method, path);
        if (match === null) throw new HttpError(404, "not found");
        if ("allow" in match)
          throw new HttpError(405, "method not allowed", { headers: { Allow: match.allow.join(", ") } });
        const input: CallInput =
          method === "POST" || method === "PUT"
            ? await readBody(req, maxBodySize)
            : { args: q === -1 ? Object.create(null) : parseQueryString(target.slice(q + 1)), text: true };
        if (match.params !== null) mergePathParams(input, match.params);
        const result = await match.endpoint.run(db, input, { req, requestId });
        if (!server.listening) closeAfterResponse(res);
        sendOk(res, result);
      }
    } catch (err) {
      answerError(res, err, log, requestId, req.method, path, !server.listening);
    }
    log.request({
      requestId,
      method: req.method ?? "",
      path,
      status: res.statusCode,
      durationMs: performance.now() - started,
    });
  }

  // handle never rejects: every error ends in answerError.
  const server = createHttpServer((req, res) => void handle(req, res));
  return server;
}

/**
 * Path parameters join the arguments as text. The same name from the body or query
 * string must hold the same value, compared as text (a JSON 5 equals the path's "5").
 */
export function mergePathParams(input: CallInput, params: Record<string, string>): void {
  const names: string[] = [];
  for (const name in params) {
    const value = params[name];
    const existing = input.args[name];
    if (existing !== undefined && !sameAsText(existing, value)) {
      throw new HttpError(
        400,
        `argument "${name}" is "${value}" in the path but differs in the ${input.text ? "query string or form" : "body"}`,
      );
    }
    input.args[name] = value;
    names.push(name);
  }
  if (!input.text) input.textArgs = names;
}

function sameAsText(existing: unknown, value: string): boolean {
  if (typeof existing === "string") return existing === value;
  if (typeof existing === "number" || typeof existing === "boolean") return String(existing) === value;
  return false;
}

/** During shutdown, finished requests close their keep-alive connection so the server can stop. */
function closeAfterResponse(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader("Connection", "close");
}

function answerError(
  res: ServerResponse,
  err: unknown,
  log: Logger,
  requestId: string,
  method: string | undefined,
  path: string,
  closing: boolean,
): void {
  try {
    if (closing) closeAfterResponse(res);
    sendError(res, err, log, { request_id: requestId, method, path });
  } catch (writeErr) {
    // Writing the envelope itself failed (a broken header, a dead socket): drop the connection.
    log.error("could not answer a request", {
      request_id: requestId,
      error: writeErr instanceof Error ? (writeErr.stack ?? writeErr.message) : String(writeErr),
    });
    res.destroy();
  }
}
