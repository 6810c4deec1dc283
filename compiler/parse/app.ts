// The texts of the app folder that have a syntax of their own, parsed like module files:
// every `route.svc` (docs/language.md §4) and the front matter of every `page.html` (§5).
// Templates and page.jq are checked in analysis, where what they name is known.

import { type Diagnostic, hasErrors } from "../diagnostics/diagnostic.js";
import type { RouteFile } from "./ast.js";
import { type FrontMatter, parseFrontMatter } from "./front-matter.js";
import { parseRouteFile } from "./index.js";

export type { FrontMatter, FrontValue } from "./front-matter.js";

export interface ParsedPage {
  front: FrontMatter;
  /** False when the front matter has errors: the page is not generated. */
  ok: boolean;
}

/** The app folder's parsed files, by path. */
export interface ParsedApp {
  routeFiles: ReadonlyMap<string, RouteFile>;
  pages: ReadonlyMap<string, ParsedPage>;
}

/** `svc dev` passes its build cache's parser, which answers an unchanged text from the last build. */
export type RouteFileParser = (file: string, text: string) => { ast: RouteFile; diagnostics: Diagnostic[] };

export function parseApp(
  files: readonly { path: string; text: string }[],
  parseRoute: RouteFileParser = parseRouteFile,
): { ast: ParsedApp; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const routeFiles = new Map<string, RouteFile>();
  const pages = new Map<string, ParsedPage>();
  for (const f of files) {
    if (isNamed(f.path, "route.svc")) {
      const parsed = parseRoute(f.path, f.text);
      diagnostics.push(...parsed.diagnostics);
      routeFiles.set(f.path, parsed.ast);
    } else if (isNamed(f.path, "page.html")) {
      const parsed = parseFrontMatter(f.path, f.text);
      diagnostics.push(...parsed.diagnostics);
      pages.set(f.path, { front: parsed.ast, ok: !hasErrors(parsed.diagnostics) });
    }
  }
  return { ast: { routeFiles, pages }, diagnostics };
}

/** `app/tasks/route.svc` is named `route.svc`; so is `route.svc` itself (an app folder of "."). */
export function isNamed(path: string, name: string): boolean {
  return path.endsWith(`/${name}`) || path === name;
}
