// Requests Node refuses before any handler runs ('clientError'): malformed framing, headers
// over MAX_HEADER_BYTES, the read timeout. Node's default answer is a bare status line with
// no body, and none at all on a kept-alive connection; here every one gets the JSON envelope
// (or svc.toml `[errors]`'s shape, answer/error-answers.ts) with `Connection: close`, an
// X-Request-Id and a Date, and a log line.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { requestIdOf } from "./answer/index.js";
import { type ErrorCode, HttpError } from "./errors.js";
import type { ErrorAnswers } from "./answer/index.js";
import { isAnswered, lingerSocket, markAnswered } from "./linger.js";
import { requestIdFrom, type Logger } from "./log.js";
import { MAX_HEADER_BYTES } from "./timeouts.js";

interface ClientError extends Error {
  code?: string;
  /** llhttp's reason, e.g. "Duplicate Content-Length". */
  reason?: string;
}

/** What the client is told: status and message. Null when there is no one left to tell. */
export function describeClientError(
  err: ClientError,
  readTimeoutMs: number,
): { status: number; message: string; code: ErrorCode } | null {
  switch (err.code) {
    case "ECONNRESET":
    case "EPIPE":
    case "ETIMEDOUT":
      return null;
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, message: `request headers are larger than ${MAX_HEADER_BYTES} bytes`, code: "SVC_ERR_HEADERS_TOO_LARGE" };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, message: "chunk extensions are too large", code: "SVC_ERR_BAD_FRAMING" };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, message: `the request did not arrive within the read timeout (${readTimeoutMs} ms)`, code: "SVC_ERR_READ_TIMEOUT" };
    default:
      return {
        status: 400,
        message: err.reason !== undefined ? `malformed HTTP request: ${err.reason}` : "malformed HTTP request",
        code: "SVC_ERR_BAD_FRAMING",
      };
  }
}

/** The 'clientError' listener of the server. */
export function answerClientError(err: ClientError, socket: Duplex, log: Logger, readTimeoutMs: number, errors: ErrorAnswers): void {
  // After a parse error Node reports every later byte as another error.
  if (isAnswered(socket)) return;
  markAnswered(socket);
  const answer = describeClientError(err, readTimeoutMs);
  if (answer === null) {
    socket.destroy();
    return;
  }
  // A request whose handler is still reading its body has a response object on the socket
  // (Node keeps it there; its own default handler looks at it too): answer through it, so the
  // handler's request log line shows the real status, and Node closes the connection after.
  const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  const fields = { status: answer.status, error: answer.message, code: answer.code, parser_code: err.code };
  if (res !== undefined && res !== null) {
    log.info("request rejected", { request_id: requestIdOf(res), ...fields });
    if (res.headersSent) socket.destroy();
    else errors.send(res, new HttpError(answer.status, answer.message, { code: answer.code, headers: { Connection: "close" } }), log, undefined, false);
    return;
  }
  const requestId = requestIdFrom(undefined);
  log.info("request rejected", { request_id: requestId, ...fields });
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const head = errors.raw(answer.status, answer.message, requestId);
  const body = "";
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    // The parser is still working on this request: were the rest of its headers to arrive,
    // Node would hand the request to the handler after it was refused. Close as soon as the
    // answer is out; a client this slow has no body bytes in flight to cause a reset.
    socket.end(head + body);
    socket.once("finish", () => socket.destroy());
    return;
  }
  // After a parse error the parser takes no more requests from this socket; reading on
  // (and discarding) for a moment lets a client still sending see the answer.
  socket.write(head + body);
  lingerSocket(socket as Socket);
}

/**
 * The 'connect' listener: a CONNECT request (a proxy tunnel) is handed over by Node as a
 * bare socket, and without a listener Node closes it unanswered. This server is no proxy:
 * the client is told so, and the connection closes.
 */
export function answerConnect(req: IncomingMessage, socket: Duplex, log: Logger, errors: ErrorAnswers): void {
  const requestId = requestIdFrom(req.headers["x-request-id"]);
  const message = "CONNECT is not served: this server is not a proxy";
  log.info("request rejected", { request_id: requestId, method: "CONNECT", status: 400, error: message });
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.write(errors.raw(400, message, requestId));
  lingerSocket(socket as Socket);
  // Nothing else reads a socket Node has let go of: read and drop what the client still sends.
  socket.resume();
}
