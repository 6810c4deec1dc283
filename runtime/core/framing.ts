// Message framing checks on top of Node's parser (llhttp, strict mode). Checked on Node 20:
// llhttp already refuses two Content-Lengths, Content-Length with Transfer-Encoding,
// `chunked, gzip` (chunked not last), `chunked, chunked`, unknown codings alone, a space
// before the colon, bare LF line ends, obsolete line folding and NUL or CR in values; Node
// answers those through 'clientError' (client-errors.ts) before any handler runs.
// It still lets through what is checked here:
//
// - `Transfer-Encoding: gzip, chunked`: framed correctly, but the body stays gzip-coded
//   and this server decodes no transfer coding but chunked (RFC 9112 §6.1).
// - Transfer-Encoding on an HTTP/1.0 request: RFC 9112 §6.1 says to treat the framing as
//   faulty, since a 1.0 intermediary may have read the body differently.
// - More than one Host header, or none in HTTP/1.1: RFC 9112 §3.2 requires a 400; a proxy
//   and this server could otherwise disagree about which host the request is for. (Node
//   checks a missing Host itself, but answers with a bare status line; see timeouts.ts.)

import type { IncomingMessage } from "node:http";
import { HttpError } from "./errors.js";

const CLOSE = { Connection: "close" } as const;

/** Hot path: null for a well-framed request (nearly all), else the 400 to answer (which closes the connection). */
export function framingProblem(req: IncomingMessage): HttpError | null {
  const te = req.headers["transfer-encoding"];
  if (te !== undefined) {
    if (req.httpVersionMinor === 0 && req.httpVersionMajor === 1) {
      return new HttpError(400, "Transfer-Encoding is not allowed in an HTTP/1.0 request", { code: "SVC_ERR_BAD_FRAMING", headers: CLOSE });
    }
    if (te.length !== 7 || te.toLowerCase() !== "chunked") {
      return new HttpError(400, `Transfer-Encoding "${te}" is not supported; send chunked or a Content-Length`, { code: "SVC_ERR_BAD_FRAMING", headers: CLOSE,
      });
    }
  }
  const hosts = hostCount(req.rawHeaders);
  if (hosts === 1) return null;
  if (hosts > 1) return new HttpError(400, "more than one Host header", { code: "SVC_ERR_BAD_FRAMING", headers: CLOSE });
  if (req.httpVersionMinor >= 1 || req.httpVersionMajor > 1) {
    return new HttpError(400, "an HTTP/1.1 request needs a Host header", { code: "SVC_ERR_BAD_FRAMING", headers: CLOSE });
  }
  return null;
}

function hostCount(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 4 && name.toLowerCase() === "host") count++;
  }
  return count;
}
