// Files served as they are: public/ (embedded in the generated server at build time) and
// the assets the runtime serves itself (unpoly.ts). Each is a Buffer with its type and a
// strong ETag made once, at start; a request with a matching If-None-Match gets a 304
// (RFC 9110 §13.1.2, §15.4.5) without a body.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { PublicFileSpec } from "./pages/types.js";

export interface StaticAsset {
  body: Buffer;
  contentType: string;
  /** Quoted strong validator, e.g. `"k3V…"`. */
  etag: string;
  cacheControl: string;
  /** Extra headers, e.g. the security headers of an HTML file. */
  headers?: Record<string, string>;
}

/** Unversioned URLs: a browser may keep the file but asks each time whether it changed (a 304 is cheap). */
export const REVALIDATE = "no-cache";
/** Versioned URLs: the bytes behind one never change. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

export class PublicFiles {
  private readonly byPath = new Map<string, StaticAsset>();

  constructor(files: readonly PublicFileSpec[], htmlHeaders: Record<string, string>) {
    for (const f of files) {
      const body = f.encoding === "utf8" ? Buffer.from(f.body, "utf8") : Buffer.from(f.body, "base64");
      const asset: StaticAsset = { body, contentType: f.contentType, etag: f.etag, cacheControl: REVALIDATE };
      if (f.contentType.startsWith("text/html")) asset.headers = htmlHeaders;
      this.byPath.set(f.path, asset);
    }
  }

  get size(): number {
    return this.byPath.size;
  }

  /** The file at a request path (without its query string), %-escapes decoded; undefined when none. */
  get(path: string): StaticAsset | undefined {
    const hit = this.byPath.get(path);
    if (hit !== undefined || path.indexOf("%") === -1) return hit;
    try {
      return this.byPath.get(decodeURIComponent(path));
    } catch {
      return undefined;
    }
  }
}

/** Answers a GET or HEAD for `asset`: 200 with the bytes, or 304 when the client's copy is current. */
export function sendAsset(req: IncomingMessage, res: ServerResponse, asset: StaticAsset): void {
  if (asset.headers !== undefined) for (const name of Object.keys(asset.headers)) res.setHeader(name, asset.headers[name]);
  res.setHeader("ETag", asset.etag);
  res.setHeader("Cache-Control", asset.cacheControl);
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (notModified(req.headers["if-none-match"], asset.etag)) {
    res.writeHead(304);
    res.end();
    return;
  }
  res.writeHead(200, { "Content-Type": asset.contentType, "Content-Length": asset.body.length });
  res.end(asset.body);
}

/** If-None-Match uses the weak comparison: `W/"x"` matches `"x"`; `*` matches any current file. */
export function notModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  for (const raw of header.split(",")) {
    const tag = raw.trim();
    if ((tag.startsWith("W/") ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}
