// `--openapi` (docs/openapi.md): the server answers GET /openapi.json, the description svc
// build wrote beside it, and an API reference page at /_svc/docs rendered by Swagger UI,
// served from the installed `swagger-ui-dist` package (no CDN). The page runs under the
// pages' Content-Security-Policy: its one script of our own is a file, not inline.
//
// Everything is read once, at start; the package's files sit under a URL holding its
// version, so they are cached for a year and an upgrade changes the URL.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { StartupError } from "../core/errors.js";
import { HTML_SECURITY_HEADERS, HTML_TYPE } from "../core/answer/index.js";
import { IMMUTABLE, REVALIDATE, type StaticAsset, strongEtag } from "./public-files.js";
import type { ServerSpec } from "../contract/index.js";
import { ASSET_PREFIX } from "./unpoly.js";

export const OPENAPI_PATH = "/openapi.json";
export const DOCS_PATH = `${ASSET_PREFIX}docs`;

/** The assets by URL path: /openapi.json, the page, and Swagger UI's files. */
export function apiDocs(spec: ServerSpec, entry: string | undefined = process.argv[1]): ReadonlyMap<string, StaticAsset> {
  const document = spec.openapi ?? readDocument(entry);
  const ui = swaggerUi();
  const base = `${DOCS_PATH}/${ui.version}/`;
  const assets = new Map<string, StaticAsset>();
  const add = (path: string, body: Buffer, contentType: string, cacheControl: string, headers?: Record<string, string>) =>
    assets.set(path, { body, contentType, etag: strongEtag(body), cacheControl, ...(headers ? { headers } : {}) });
  add(OPENAPI_PATH, Buffer.from(document), "application/json; charset=utf-8", REVALIDATE);
  add(base + "swagger-ui.css", readFileSync(join(ui.dir, "swagger-ui.css")), "text/css; charset=utf-8", IMMUTABLE);
  add(base + "swagger-ui-bundle.js", readFileSync(join(ui.dir, "swagger-ui-bundle.js")), "text/javascript; charset=utf-8", IMMUTABLE);
  // The page's own script; Swagger UI's validator badge would call a third-party host, so it is off.
  const init = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_PATH)}, dom_id: "#swagger-ui", deepLinking: true, validatorUrl: null });\n`;
  add(`${base}init.js`, Buffer.from(init), "text/javascript; charset=utf-8", IMMUTABLE);
  const page = [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(spec.name)} ${escapeHtml(spec.version)}: API reference</title>`,
    `<link rel="stylesheet" href="${base}swagger-ui.css">`,
    "</head>",
    "<body>",
    '<div id="swagger-ui"></div>',
    `<script src="${base}swagger-ui-bundle.js"></script>`,
    `<script src="${base}init.js"></script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
  add(DOCS_PATH, Buffer.from(page), HTML_TYPE, REVALIDATE, HTML_SECURITY_HEADERS);
  return assets;
}

/** openapi.json beside the server module that was started (where svc build writes both). */
function readDocument(entry: string | undefined): string {
  const file = entry === undefined ? "openapi.json" : join(dirname(entry), "openapi.json");
  try {
    const text = readFileSync(file, "utf8");
    JSON.parse(text);
    return text;
  } catch (e) {
    throw new StartupError("SVC_ERR_ASSET", `--openapi serves ${file}, which svc build writes beside server.js, but it cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function swaggerUi(): { dir: string; version: string } {
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve("swagger-ui-dist/package.json");
    return { dir: dirname(manifest), version: (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version };
  } catch (e) {
    throw new StartupError("SVC_ERR_ASSET", `--openapi needs the \`swagger-ui-dist\` package for /_svc/docs, which cannot be loaded: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
