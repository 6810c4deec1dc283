// public/ (docs/language.md §1, §5): every file is served as it is at its path below the folder.
// The files are read at build time, checked, given their content type, and written beside the
// server (dist/public/…), which reads them once at start and serves them from memory.

import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { appCodes as codes } from "../diagnostics/codes/app.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/** A file of public/: the generator writes it beside the server (`public/style.css` in the output folder). */
export interface PublicFileModel {
  /** URL path: `/style.css` */
  path: string;
  /** `public/style.css` */
  source: string;
  contentType: string;
  /** Text files are kept as they are (readable in the model's snapshot); anything else as base64. */
  encoding: "utf8" | "base64";
  body: string;
}

/** Held in memory by every server process: stylesheets, scripts, icons and images; anything bigger belongs on a CDN. */
export const MAX_PUBLIC_FILE = 8 * 1024 * 1024;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".pdf": "application/pdf",
  ".wasm": "application/wasm",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
};
const BINARY = "application/octet-stream";
const utf8 = new TextDecoder("utf-8", { fatal: true });

export function contentTypeOf(name: string): string {
  return TYPES[path.extname(name).toLowerCase()] ?? BINARY;
}

/**
 * The files below `root/publicDir`, sorted by path. Hidden files are skipped; an unreadable
 * or oversized file is a diagnostic.
 */
export function readPublicFiles(root: string, publicDir: string | null): { files: PublicFileModel[]; diagnostics: Diagnostic[] } {
  const files: PublicFileModel[] = [];
  const diagnostics: Diagnostic[] = [];
  if (publicDir === null) return { files, diagnostics };
  const base = path.resolve(root, publicDir);
  const seen = new Set<string>();
  const walk = (dir: string): void => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      real = dir;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      diagnostics.push(codes.publicFile.at(rel(root, dir), null, rel(root, dir), reason(e)));
      return;
    }
    for (const name of names) {
      if (name.startsWith(".")) continue;
      const abs = path.join(dir, name);
      let stat;
      try {
        stat = statSync(abs);
      } catch (e) {
        diagnostics.push(codes.publicFile.at(rel(root, abs), null, rel(root, abs), reason(e)));
        continue;
      }
      if (stat.isDirectory()) walk(abs);
      else if (stat.isFile()) {
        const file = readOne(root, base, abs, stat.size, diagnostics);
        if (file) files.push(file);
      }
    }
  };
  walk(base);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics };
}

function readOne(root: string, base: string, abs: string, size: number, diagnostics: Diagnostic[]): PublicFileModel | null {
  const source = rel(root, abs);
  if (size > MAX_PUBLIC_FILE) {
    diagnostics.push(
      codes.publicFile.at(source, null, source, `${size} bytes is over the ${MAX_PUBLIC_FILE} bytes a server keeps in memory; serve it from elsewhere`),
    );
    return null;
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    diagnostics.push(codes.publicFile.at(source, null, source, reason(e)));
    return null;
  }
  const urlPath = `/${path.relative(base, abs).split(path.sep).join("/")}`;
  const contentType = contentTypeOf(abs);
  const text = isTextType(contentType) ? decodeText(bytes) : null;
  return text !== null
    ? { path: urlPath, source, contentType, encoding: "utf8", body: text }
    : { path: urlPath, source, contentType, encoding: "base64", body: bytes.toString("base64") };
}

function isTextType(type: string): boolean {
  return type.startsWith("text/") || type.includes("json") || type.includes("xml");
}

/** The text when the bytes are UTF-8 without a BOM (which a string literal would not keep), else null. */
function decodeText(bytes: Buffer): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function rel(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join("/");
}

function reason(error: unknown): string {
  if (error && typeof error === "object" && "code" in error && typeof error.code === "string") return `cannot be read (${error.code})`;
  return `cannot be read (${error instanceof Error ? error.message : String(error)})`;
}
