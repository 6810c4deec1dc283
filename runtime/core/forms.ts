// multipart/form-data bodies (RFC 7578), as browsers send forms with
// `enctype="multipart/form-data"` and as `fetch(new FormData(form))` does, to something
// that takes no `file`: a file part is refused (415) rather than dropped (runtime/uploads
// streams the bodies of those that do). The rules
// match urlencoded bodies (query-string.ts): one value per name, no `a[]` list keys.

import { HttpError } from "./errors.js";
import { newArgs } from "./query-string.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

/** The boundary parameter of a multipart Content-Type; null when it has none usable. */
export function multipartBoundary(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : null;
}

/** Parses a multipart/form-data body into a record of strings. Throws a 400 HttpError for a malformed body. */
export function parseMultipart(body: Buffer, contentType: string): Record<string, string> {
  const boundary = multipartBoundary(contentType);
  if (boundary === null) throw bad("has no boundary in its Content-Type");
  const delimiter = Buffer.from(`--${boundary}`);
  const out = newArgs();
  let at = body.indexOf(delimiter);
  if (at === -1) throw bad("does not contain its boundary");
  for (;;) {
    at += delimiter.length;
    // `--boundary--` closes the body; anything after it is an epilogue and is ignored.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return out;
    if (!body.subarray(at, at + 2).equals(CRLF)) throw bad("has a boundary not followed by a line break");
    const headersStart = at + 2;
    const headersEnd = body.indexOf(HEADER_END, headersStart);
    if (headersEnd === -1) throw bad("has a part without the blank line after its headers");
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), headersEnd + 4);
    if (next === -1) throw bad("is not closed by its final boundary");
    const headers = decode(body.subarray(headersStart, headersEnd), "part headers");
    addField(out, headers, body.subarray(headersEnd + 4, next));
    at = next + 2;
  }
}

function addField(out: Record<string, string>, headers: string, value: Buffer): void {
  let disposition: string | null = null;
  for (const line of headers.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon !== -1 && line.slice(0, colon).trim().toLowerCase() === "content-disposition") {
      disposition = line.slice(colon + 1).trim();
    }
  }
  if (disposition === null || !/^form-data\s*(;|$)/i.test(disposition)) throw bad("has a part that is not form-data");
  const name = param(disposition, "name");
  if (name === null) throw bad("has a part without a name");
  if (param(disposition, "filename") !== null) {
    throw new HttpError(415, `argument "${name}" is a file upload, and no file is taken there`, { code: "SVC_ERR_UNSUPPORTED_MEDIA_TYPE", headers: { Connection: "close" } });
  }
  const bracket = name.indexOf("[");
  if (bracket !== -1) {
    throw new HttpError(400, `argument "${name.slice(0, bracket)}" given as a list or object in the form body; pass one value`, { code: "SVC_ERR_BAD_BODY" });
  }
  if (name in out) throw new HttpError(400, `argument "${name}" given more than once in the form body`, { code: "SVC_ERR_BAD_BODY" });
  out[name] = decode(value, `field "${name}"`);
}

/**
 * A `key="value"` parameter of Content-Disposition. Browsers escape `"`, CR and LF in names
 * as %22, %0D and %0A (HTML's multipart/form-data encoding algorithm); those are undone.
 */
function param(header: string, key: string): string | null {
  const m = new RegExp(`;\\s*${key}="([^"]*)"`, "i").exec(header) ?? new RegExp(`;\\s*${key}=([^\\s;"]+)`, "i").exec(header);
  if (!m) return null;
  return m[1].replace(/%22/g, '"').replace(/%0D/gi, "\r").replace(/%0A/gi, "\n");
}

function decode(bytes: Buffer, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpError(400, `form body ${what} is not valid UTF-8`, { code: "SVC_ERR_BAD_BODY" });
  }
}

function bad(problem: string): HttpError {
  return new HttpError(400, `multipart form body ${problem}`, { code: "SVC_ERR_BAD_BODY" });
}
