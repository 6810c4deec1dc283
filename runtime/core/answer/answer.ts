// The response object of svc's servers: Node's ServerResponse, carrying the id of the request
// it answers (`http.createServer({ ServerResponse: Answer })`).
//
// Every answer names its request in X-Request-Id. The header is added here, as the head goes
// out, rather than with setHeader when the request arrives: any header set before writeHead
// sends Node down its merging path, where every header passed to writeHead is set (and
// validated) once more and then copied; on a small JSON answer that was a tenth of the request.
// So the common answers (writeJsonHead, for envelope.ts and health.ts) make one writeHead with
// a list of headers, the id among them, and nothing set before it; other answers get the id
// here, and no path can forget it. Node need not check their headers again (answers/trusted-head.ts).

import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from "node:http";
import { JSON_TYPE, NO_STORE_ENTRY, REQUEST_ID_HEADER, writeTrustedJsonHead } from "./trusted-head.js";
import type { DeadlineLinks } from "../timeouts.js";

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];

export class Answer<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> implements DeadlineLinks {
  /** Set by the request handler before anything is written; "" on an answer it never saw. */
  requestId = "";
  // Write-deadline bookkeeping (timeouts.ts), declared so that tracking an answer changes no shape.
  deadlineDue = -1;
  deadlinePrev: DeadlineLinks | null = null;
  deadlineNext: DeadlineLinks | null = null;

  override writeHead(statusCode: number, statusMessage?: string, headers?: Headers): this;
  override writeHead(statusCode: number, headers?: Headers): this;
  override writeHead(statusCode: number, reasonOrHeaders?: string | Headers, maybeHeaders?: Headers): this {
    const reason = typeof reasonOrHeaders === "string" ? reasonOrHeaders : undefined;
    let headers = typeof reasonOrHeaders === "string" ? maybeHeaders : reasonOrHeaders;
    if (this.requestId !== "") {
      if (Array.isArray(headers)) headers = withRequestId(headers, this.requestId);
      else this.setHeader(REQUEST_ID_HEADER, this.requestId);
    }
    return reason === undefined ? super.writeHead(statusCode, headers) : super.writeHead(statusCode, reason, headers);
  }
}

/**
 * The head of a JSON answer of `length` bytes, with the request id (and `Cache-Control: no-store`
 * when `noStore`: an answer no cache may keep) among its headers: in
 * Node's header store when nothing was set before (answers/trusted-head.ts), else one writeHead
 * with a list written out whole (one grown by push or concat costs a runtime call).
 */
export function writeJsonHead(res: ServerResponse, status: number, length: number, noStore = false): void {
  if (res instanceof Answer && res.requestId !== "") {
    if (writeTrustedJsonHead(res, status, length, res.requestId, noStore)) return;
    const id = res.requestId;
    const head = noStore
      ? ["Content-Type", JSON_TYPE, "Content-Length", length, REQUEST_ID_HEADER, id, NO_STORE_ENTRY[0], NO_STORE_ENTRY[1]]
      : ["Content-Type", JSON_TYPE, "Content-Length", length, REQUEST_ID_HEADER, id];
    // Past the override: the id is in the list already.
    writeHeadAsIs.call(res, status, head);
  } else {
    res.writeHead(
      status,
      noStore
        ? ["Content-Type", JSON_TYPE, "Content-Length", length, NO_STORE_ENTRY[0], NO_STORE_ENTRY[1]]
        : ["Content-Type", JSON_TYPE, "Content-Length", length],
    );
  }
}

/** A whole answer's body: text (its UTF-8 size counted when `length` is absent) or bytes. */
export interface Body {
  type: string;
  content: string | Buffer;
  length?: number;
}

/** Headers an answer sets besides its own: by name, or as pairs where a null value leaves the header out. */
export type ExtraHeaders = Readonly<Record<string, string>> | readonly (readonly [string, string | null])[];

/**
 * The one way a whole answer goes out, whatever wrote it (an envelope, a shaped answer, a page,
 * a file, a handshake reply, a 204, 303 or 304): `headers`, then one head and the body. When
 * the head went out already, the only honest thing left is to cut the connection. Without a
 * body, a 204 or 304 says no length (RFC 9110 §8.6) and any other status says 0. The head
 * goes to writeHead as an object, which svc dev's page wrapper (compiler/dev/overlay.ts) reads.
 */
export function sendWhole(res: ServerResponse, status: number, body: Body | null, headers?: ExtraHeaders | null): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (headers !== undefined && headers !== null) setHeaders(res, headers);
  if (body === null) {
    if (status === 204 || status === 304) res.writeHead(status);
    else res.writeHead(status, { "Content-Length": 0 });
    res.end();
    return;
  }
  if (typeof body.content !== "string") {
    res.writeHead(status, { "Content-Type": body.type, "Content-Length": body.content.length });
    res.end(body.content);
    return;
  }
  const length = body.length ?? Buffer.byteLength(body.content);
  res.writeHead(status, { "Content-Type": body.type, "Content-Length": length });
  endWithBody(res, body.content, length);
}

function setHeaders(res: ServerResponse, headers: ExtraHeaders): void {
  if (isPairs(headers)) {
    for (const [name, value] of headers) if (value !== null) res.setHeader(name, value);
  } else {
    for (const name of Object.keys(headers)) res.setHeader(name, headers[name]);
  }
}

function isPairs(headers: ExtraHeaders): headers is readonly (readonly [string, string | null])[] {
  return Array.isArray(headers);
}

/**
 * Ends an answer whose body is `body`, `length` bytes of UTF-8. An ASCII body (its UTF-8
 * length is its length) goes out as latin1, the same bytes: Node copies a latin1 string
 * where it encodes a UTF-8 one a character at a time, after copying it flat (on /health,
 * some 2,000 instructions of the 3,500 the write took).
 */
export function endWithBody(res: ServerResponse, body: string, length: number): void {
  res.end(body, length === body.length ? "latin1" : "utf8");
}

const writeHeadAsIs = ServerResponse.prototype.writeHead as (this: ServerResponse, status: number, headers?: OutgoingHttpHeader[]) => ServerResponse;

/** A header list (flat, `[name, value, …]`, or of pairs) with the id added; the caller's list is left as it was. */
function withRequestId(headers: OutgoingHttpHeader[], id: string): OutgoingHttpHeader[] {
  if (headers.length > 0 && Array.isArray(headers[0])) return [...headers, [REQUEST_ID_HEADER, id]] as OutgoingHttpHeader[];
  return [...headers, REQUEST_ID_HEADER, id];
}

/** The request id an answer carries: its own, or for a response made elsewhere, its header. */
export function requestIdOf(res: ServerResponse): string | undefined {
  if (res instanceof Answer && res.requestId !== "") return res.requestId;
  const header = res.getHeader(REQUEST_ID_HEADER);
  return typeof header === "string" ? header : undefined;
}
