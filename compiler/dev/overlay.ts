// What `svc dev` adds to HTML responses: the live-reload script always, and while the last
// edit does not build, an overlay with the diagnostics over the last good version's page
// (templates/dev/overlay.html).

import type { ServerResponse } from "node:http";
import { mediaType } from "../../runtime/core/media-type.js";
import { renderTemplate } from "../templates.js";
import { CLIENT_PATH } from "./live-reload.js";

/** The overlay: a headline, and the rendered diagnostics (file:line:col, code frame, hint) as preformatted text. */
export function overlayHtml(headline: string, diagnostics: string): string {
  return renderTemplate("dev/overlay.html", { headline, diagnostics });
}

export function reloadScriptTag(): string {
  return `<script src="${CLIENT_PATH}"></script>`;
}

/** `html` with `snippet` just before `</body>`, or at the end when there is none. */
export function injectBeforeBodyEnd(html: string, snippet: string): string {
  const at = html.toLowerCase().lastIndexOf("</body>");
  return at === -1 ? html + snippet : html.slice(0, at) + snippet + html.slice(at);
}

type WriteHead = ServerResponse["writeHead"];

/**
 * Makes `res` hold back an HTML response's body and, when it ends, send it with
 * `snippet()` injected and its Content-Length corrected. Other responses pass untouched.
 * The snippet is read at the end, so it reflects the build state when the page is sent.
 */
export function injectIntoHtml(res: ServerResponse, snippet: () => string): void {
  const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
  const write = res.write as (...args: unknown[]) => boolean;
  const end = res.end as (...args: unknown[]) => ServerResponse;
  let html: boolean | null = null;
  const chunks: Buffer[] = [];

  const isHtml = (): boolean => (html ??= htmlType(res.getHeader("content-type")));

  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]): ServerResponse {
    const given = (typeof rest[0] === "string" ? rest[1] : rest[0]) as Record<string, unknown> | unknown[] | undefined;
    const headers = given !== undefined && !Array.isArray(given) ? given : {};
    const typeKey = Object.keys(headers).find((k) => k.toLowerCase() === "content-type");
    const type = typeKey !== undefined ? headers[typeKey] : res.getHeader("content-type");
    html = given === undefined || !Array.isArray(given) ? htmlType(type) : false;
    if (!html) return writeHead.call(res, status, ...rest);
    // Held until end: the headers go on the response, the status is remembered.
    for (const [k, v] of Object.entries(headers)) {
      if (k.toLowerCase() !== "content-length" && v !== undefined) res.setHeader(k, v as string);
    }
    res.statusCode = status;
    return res;
  } as WriteHead;

  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]): boolean {
    if (!isHtml()) return write.call(res, chunk, ...rest);
    chunks.push(toBuffer(chunk, rest[0]));
    return true;
  } as ServerResponse["write"];

  res.end = function (this: ServerResponse, ...args: unknown[]): ServerResponse {
    if (!isHtml()) return end.call(res, ...args);
    if (args.length > 0 && typeof args[0] !== "function" && args[0] !== undefined && args[0] !== null) {
      chunks.push(toBuffer(args[0], args[1]));
    }
    const body = Buffer.from(injectBeforeBodyEnd(Buffer.concat(chunks).toString("utf8"), snippet()));
    res.removeHeader("content-length");
    res.setHeader("Content-Length", body.length);
    res.setHeader("Cache-Control", "no-store");
    writeHead.call(res, res.statusCode);
    return end.call(res, body);
  } as ServerResponse["end"];
}

function htmlType(header: unknown): boolean {
  return typeof header === "string" && mediaType(header) === "text/html";
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
}
