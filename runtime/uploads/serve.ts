// Answers a stored file (docs/language.md §2.7): an endpoint whose action returns a `file`.
// The ETag is strong, the bytes' SHA-256 (RFC 9110 §8.8.3), and a matching If-None-Match is a
// 304 (§13.1.2). The client's media type is not trusted to be shown as a page: types a
// browser runs (HTML, SVG, XML, JavaScript…) are answered as application/octet-stream and
// as an attachment, and every answer carries `nosniff` and a sandboxing CSP, so an upload
// can never run as this site's page. The filename goes into Content-Disposition quoted as
// ASCII and as RFC 8187 UTF-8 (`filename*`), never as raw header text.

import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { sendWhole } from "../core/answer/index.js";
import { HttpError } from "../core/errors.js";
import { asFileValue } from "./file.js";
import type { UploadStore } from "./store.js";

/** Types shown inline: images a browser only draws, plain text, PDF, audio and video. Everything else downloads. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|text\/plain|application\/pdf|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+)$/u;
/** Types a browser would run or render as a document: never served as themselves. */
const ACTIVE = /(html|xml|svg|javascript|ecmascript|x-shockwave-flash|\/x-sh$|multipart\/)/u;

export async function sendStoredFile(req: IncomingMessage, res: ServerResponse, result: unknown, store: UploadStore): Promise<void> {
  const file = asFileValue(result);
  if (file === null) throw new HttpError(404, "not found", { code: "SVC_ERR_NOT_FOUND" });
  const stored = await store.get(file.sha256);
  if (stored === null) throw new HttpError(404, "the file is not in the store", { code: "SVC_ERR_NOT_FOUND" });
  const etag = `"${file.sha256}"`;
  const active = ACTIVE.test(file.type);
  const inline = !active && INLINE.test(file.type);
  res.setHeader("ETag", etag);
  res.setHeader("Cache-Control", "private, no-cache");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
  if (matches(req.headers["if-none-match"], etag)) {
    sendWhole(res, 304, null);
    return;
  }
  res.writeHead(200, {
    "Content-Type": active ? "application/octet-stream" : file.type + (file.type === "text/plain" ? "; charset=utf-8" : ""),
    "Content-Length": stored.size,
    "Content-Disposition": disposition(inline ? "inline" : "attachment", file.name),
  });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  await pipeline(stored.open(), res);
}

/** `If-None-Match` (RFC 9110 §13.1.2): `*`, or a list holding this tag (weak comparison). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//u, "") === etag);
}

/** `attachment; filename="a.txt"; filename*=UTF-8''a.txt` (RFC 6266 §4.3, RFC 8187). */
export function disposition(kind: "inline" | "attachment", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/gu, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
