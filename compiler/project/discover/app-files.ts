// The files of the app folder that a project serves (docs/language.md §4–5): route files and
// pages anywhere below it, and the one layout at its top.

import path from "node:path";
import type { DiscoverContext, SourceFile } from "./context.js";
import { byString, isHidden, listDir, readSource } from "./context.js";

const ANYWHERE = new Set(["route.svc", "page.html", "page.jq"]);
const AT_TOP = new Set(["layout.html"]);

/** Sorted by path. Hidden folders and node_modules are skipped; a symlinked folder is walked once. */
export function collectAppFiles(ctx: DiscoverContext, appDir: string): SourceFile[] {
  const found: SourceFile[] = [];
  const seen = new Set<string>();

  const walk = (dir: string) => {
    const real = canonical(ctx, dir);
    if (seen.has(real)) return;
    seen.add(real);
    for (const name of listDir(ctx, dir)) {
      if (isHidden(name) || name === "node_modules") continue;
      const child = path.join(dir, name);
      const kind = ctx.fs.kind(child);
      if (kind === "dir") walk(child);
      else if (kind === "file" && (ANYWHERE.has(name) || (AT_TOP.has(name) && dir === appDir))) {
        const file = readSource(ctx, child);
        if (file) found.push(file);
      }
    }
  };
  walk(appDir);
  return found.sort((a, b) => byString(a.path, b.path));
}

function canonical(ctx: DiscoverContext, dir: string): string {
  try {
    return ctx.fs.realpath(dir);
  } catch {
    return dir;
  }
}
