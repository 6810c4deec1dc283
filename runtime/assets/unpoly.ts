// Unpoly 3, served by the server itself from the installed `unpoly` package (no CDN), and
// the parts of its server protocol (https://unpoly.com/up.protocol) that pages use.
//
// The files are read once, at start, and served under a URL that holds the package's
// version, so they can be cached for a year: an upgrade changes the URL.

import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { StartupError } from "../core/errors.js";
import { IMMUTABLE, type StaticAsset, strongEtag } from "./public-files.js";

/** Everything the server serves itself lives below this prefix (the compiler keeps pages out of it). */
export const ASSET_PREFIX = "/_svc/";

export interface UnpolyAssets {
  version: string;
  /** `/_svc/unpoly/3.14.3/unpoly.min.js` */
  jsPath: string;
  cssPath: string;
  byPath: ReadonlyMap<string, StaticAsset>;
}

let loaded: UnpolyAssets | null = null;

/** Reads unpoly.min.js and unpoly.min.css from the installed package, once per process. */
export function unpolyAssets(): UnpolyAssets {
  if (loaded !== null) return loaded;
  let dir: string;
  let version: string;
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve("unpoly/package.json");
    dir = dirname(manifest);
    version = (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
  } catch (e) {
    throw new StartupError("SVC_ERR_ASSET", `pages need the \`unpoly\` package, which cannot be loaded: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!/^3\./.test(version)) throw new StartupError("SVC_ERR_ASSET", `pages need Unpoly 3; the installed \`unpoly\` package is ${version}`);
  const base = `${ASSET_PREFIX}unpoly/${version}/`;
  const byPath = new Map<string, StaticAsset>();
  const add = (file: string, contentType: string): string => {
    const body = readFileSync(join(dir, file));
    byPath.set(base + file, { body, contentType, etag: strongEtag(body), cacheControl: IMMUTABLE });
    return base + file;
  };
  const jsPath = add("unpoly.min.js", "text/javascript; charset=utf-8");
  const cssPath = add("unpoly.min.css", "text/css; charset=utf-8");
  loaded = { version, jsPath, cssPath, byPath };
  return loaded;
}

/** A request made by Unpoly (it always sends `X-Up-Version`), rather than a full page load. */
export function isUnpolyRequest(req: IncomingMessage): boolean {
  return req.headers["x-up-version"] !== undefined;
}

/**
 * Headers for HTML that answers a request to another URL (a failed form post answered with
 * the page it came from): Unpoly then treats the HTML as that page's, fetched with GET, for
 * its history and cache (X-Up-Location, X-Up-Method).
 */
export function unpolyLocation(location: string): Record<string, string> {
  return { "X-Up-Location": location, "X-Up-Method": "GET" };
}
