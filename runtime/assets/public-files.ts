// Files served as they are: public/ (written beside the generated server at build time, read
// once at start) and the assets the runtime serves itself (unpoly.ts). Each is a Buffer with
// its type and a strong ETag made once, at start, from the bytes it serves; a request with a
// matching If-None-Match gets a 304 (RFC 9110 §13.1.2, §15.4.5) without a body.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendWhole } from "../core/answer/index.js";
import { StartupError } from "../core/errors.js";
import type { PublicFileSpec } from "../contract/index.js";

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

  /** Reads every file below `root` (see AppSpec.publicRoot); one StartupError names every file that cannot be read. */
  constructor(files: readonly PublicFileSpec[], root: string, htmlHeaders: Record<string, string>) {
    const bodies = readPublicFiles(files, root);
    files.forEach((f, i) => {
      const body = bodies[i];
      const asset: StaticAsset = { body, contentType: f.contentType, etag: strongEtag(body), cacheControl: REVALIDATE };
      if (f.contentType.startsWith("text/html")) asset.headers = htmlHeaders;
      this.byPath.set(f.path, asset);
    });
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

function readPublicFiles(files: readonly PublicFileSpec[], root: string): Buffer[] {
  if (files.length === 0) return [];
  if (!root.startsWith("file:")) {
    throw new StartupError("SVC_ERR_ASSET", `public/ files are read beside the server module, which was not loaded from a file (${root.slice(0, 40)}…)`);
  }
  const bodies: Buffer[] = [];
  const missing: string[] = [];
  for (const f of files) {
    const url = new URL(f.file, root);
    try {
      bodies.push(readFileSync(url));
    } catch (err) {
      missing.push(`${decodeURIComponent(url.pathname)} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }
  if (missing.length > 0) {
    throw new StartupError(
      "SVC_ERR_ASSET",
      `cannot read ${missing.length === 1 ? "a file" : `${missing.length} files`} of public/, which svc build writes beside server.js: ${missing.join(", ")}`,
    );
  }
  return bodies;
}

/** A strong validator made from the bytes: the first 27 characters of their SHA-256 in base64url, quoted. */
export function strongEtag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** Answers a GET or HEAD for `asset`: 200 with the bytes, or 304 when the client's copy is current. */
export function sendAsset(req: IncomingMessage, res: ServerResponse, asset: StaticAsset): void {
  if (asset.headers !== undefined) for (const name of Object.keys(asset.headers)) res.setHeader(name, asset.headers[name]);
  res.setHeader("ETag", asset.etag);
  res.setHeader("Cache-Control", asset.cacheControl);
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (notModified(req.headers["if-none-match"], asset.etag)) sendWhole(res, 304, null);
  else sendWhole(res, 200, { type: asset.contentType, content: asset.body });
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
