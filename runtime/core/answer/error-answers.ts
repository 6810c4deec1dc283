// The one writer of the server's error answers (docs/language.md §3 "Error shape"). Chosen
// once, at start: without svc.toml `[errors]` every error is the envelope,
// `{"ok":false,"error":"…"}`; with it, every error the server makes takes the declared
// shape, apart from the errors of targets that answer with the envelope (an
// `/api/<module>:<name>` endpoint, a route or a route-file block without `respond`, a
// webhook), whose clients read `ok` on success and failure alike.
//
// What goes through here: the request handler's errors (unknown path 404, 405 with Allow,
// the cross-site 403, 401 of a refused credential, 413, 415, 429, 503 while shutting down or
// when the database is busy, 400s of arguments and framing, 500), the write timeout's 503,
// and the answers to requests Node's parser refused (400, 408, 413, 431) or a CONNECT.

import { STATUS_CODES, type ServerResponse } from "node:http";
import { sendError } from "./envelope.js";
import { sendShapedError } from "./shaped.js";
import type { ErrorShape } from "../../contract/index.js";
import type { Logger } from "../log.js";

export interface ErrorAnswers {
  /**
   * Writes `err` as an error answer: in the declared shape, unless `envelope` (the error of a
   * target that answers with the envelope) or no shape is declared. An HttpError keeps its
   * status, message and headers; anything else is a 500 whose details go only to the log.
   */
  send(res: ServerResponse, err: unknown, log: Logger, context: Record<string, unknown> | undefined, envelope: boolean): void;
  /** A whole answer as bytes, for a socket Node no longer writes responses to; it closes the connection. */
  raw(status: number, message: string, requestId: string): string;
}

/** The error answers of a server with `shape` (null: the envelope) and `serverHeader` (null: none). */
export function errorAnswers(shape: ErrorShape | null, serverHeader: string | null | undefined): ErrorAnswers {
  const server = serverHeader === null || serverHeader === undefined ? "" : `Server: ${serverHeader}\r\n`;
  if (shape === null) {
    return {
      send: (res, err, log, context) => sendError(res, err, log, context),
      raw: (status, message, requestId) => rawAnswer(status, JSON.stringify({ ok: false, error: message }), requestId, server),
    };
  }
  return {
    send: (res, err, log, context, envelope) => (envelope ? sendError(res, err, log, context) : sendShapedError(res, err, shape, log, context)),
    raw: (status, message, requestId) => rawAnswer(status, shape.body(status, message), requestId, server),
  };
}

/** The envelope answers, for callers that know of no shape (svc dev's own socket). */
export const ENVELOPE_ERRORS: ErrorAnswers = errorAnswers(null, null);

function rawAnswer(status: number, body: string, requestId: string, server: string): string {
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n` +
    // RFC 9110 §6.6.1: an origin server with a clock sends Date in every 4xx.
    `Date: ${new Date().toUTCString()}\r\n` +
    server +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

/** A request's error answer, in the target's shape; a failure to write even that drops the connection (server.ts). */
export function answerError(
  res: ServerResponse,
  err: unknown,
  errors: ErrorAnswers,
  envelope: boolean,
  log: Logger,
  requestId: string,
  method: string | undefined,
  path: string,
  closing: boolean,
): void {
  try {
    if (closing) res.setHeader("Connection", "close");
    errors.send(res, err, log, { request_id: requestId, method, path }, envelope);
  } catch (writeErr) {
    // Writing the envelope itself failed (a broken header, a dead socket): drop the connection.
    log.error("could not answer a request", {
      request_id: requestId,
      error: writeErr instanceof Error ? (writeErr.stack ?? writeErr.message) : String(writeErr),
    });
    res.destroy();
  }
}
