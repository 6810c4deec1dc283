// Folders under app/ as URLs (docs/language.md §4–5): a file's URL is its folder, and a folder
// `[id]` is the path parameter `:id`. Also the order pages and route files are matched in:
// at each position a fixed segment before a parameter, so `/tasks/new` wins over
// `/tasks/:id` whatever the folder names sort as.

import { appCodes as codes } from "../../diagnostics/codes/app.js";
import type { Reporter } from "../shared/context.js";

export interface AppPath {
  /** `/tasks/:id` */
  path: string;
  /** `["tasks", ":id"]` */
  segments: string[];
  /** `["id"]` */
  params: string[];
}

const PARAM = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/;
// Characters a folder name may hold and still be one URL path segment as it is written.
const PLAIN = /^[A-Za-z0-9._~!$&'()*+,;=@-]+$/;

/** The path of the folder holding `file` (relative to the project root) below `appDir`. */
export function folderPath(appDir: string, file: string, r: Reporter): AppPath | null {
  const prefix = appDir === "." ? "" : `${appDir}/`;
  const inside = file.startsWith(prefix) ? file.slice(prefix.length) : file;
  const folders = inside.split("/").slice(0, -1);
  const segments: string[] = [];
  const params: string[] = [];
  let ok = true;
  for (const folder of folders) {
    const param = PARAM.exec(folder);
    if (param) {
      if (params.includes(param[1])) {
        r.add(codes.badFolder.at(file, null, folder, "repeats a path parameter of an enclosing folder"));
        ok = false;
      }
      params.push(param[1]);
      segments.push(`:${param[1]}`);
    } else if (folder.includes("[") || folder.includes("]")) {
      r.add(codes.badFolder.at(file, null, folder, "is not a parameter: write [name] with letters, digits and _"));
      ok = false;
    } else if (!PLAIN.test(folder) || folder.startsWith(":")) {
      r.add(codes.badFolder.at(file, null, folder, "has characters a URL segment cannot hold as written"));
      ok = false;
    } else {
      segments.push(folder);
    }
  }
  if (!ok) return null;
  return { path: `/${segments.join("/")}`, segments, params };
}

/** Matching order: fewer segments first, then, at the first difference, a fixed segment before a parameter. */
export function bySpecificity(a: { segments: readonly string[] }, b: { segments: readonly string[] }): number {
  if (a.segments.length !== b.segments.length) return a.segments.length - b.segments.length;
  for (let i = 0; i < a.segments.length; i++) {
    const x = a.segments[i];
    const y = b.segments[i];
    if (x === y) continue;
    const xp = x.startsWith(":");
    const yp = y.startsWith(":");
    if (xp !== yp) return xp ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** `/api/task_tracker/[id]` or `/api/task_tracker/:id` → `["api", "task_tracker", ":id"]`; parameter names kept. */
export function routeReference(written: string): string[] {
  const trimmed = written.replace(/\/+$/, "");
  if (trimmed === "") return [];
  return trimmed
    .replace(/^\//, "")
    .split("/")
    .map((s) => {
      const m = PARAM.exec(s);
      return m ? `:${m[1]}` : s;
    });
}

/** Two segment lists are the same URL when they agree on fixed segments and parameter positions. */
export function sameShape(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => (s.startsWith(":") ? b[i].startsWith(":") : s === b[i]));
}
