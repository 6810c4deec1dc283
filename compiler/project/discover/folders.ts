// Module folders: which folders hold `.svc` files, and which folders a modules.dirs
// pattern names.

import path from "node:path";
import type { DiscoverContext, SourceFile } from "./context.js";
import { byString, isHidden, listDir, readSource, relative } from "./context.js";

export interface ModuleDir {
  /** Relative to the project root, with forward slashes ("." when the root is the module). */
  dir: string;
  files: SourceFile[];
}

/** The `*.svc` files directly inside `abs`, sorted by name (not recursive: subfolders are other modules). */
export function svcFileNames(ctx: DiscoverContext, abs: string): string[] {
  return listDir(ctx, abs).filter(
    (name) => name.endsWith(".svc") && !isHidden(name) && ctx.fs.kind(path.join(abs, name)) === "file",
  );
}

/** Reads a module folder; null when it holds no `.svc` files. */
export function readModuleDir(ctx: DiscoverContext, abs: string): ModuleDir | null {
  const names = svcFileNames(ctx, abs);
  if (names.length === 0) return null;
  const files: SourceFile[] = [];
  for (const name of names) {
    const file = readSource(ctx, path.join(abs, name));
    if (file) files.push(file);
  }
  return { dir: relative(ctx, abs), files };
}

/** The direct, non-hidden subfolders of `abs`, sorted. */
export function subfolders(ctx: DiscoverContext, abs: string): string[] {
  return listDir(ctx, abs)
    .filter((name) => !isHidden(name))
    .map((name) => path.join(abs, name))
    .filter((child) => ctx.fs.kind(child) === "dir");
}

export const isPattern = (entry: string) => entry.includes("*");

/**
 * The folders a modules.dirs pattern matches, absolute and sorted. `*` stands for any
 * run of characters within one path segment, as in a shell; like a shell, it does not
 * match hidden folders unless the segment itself starts with a dot.
 */
export function expandPattern(ctx: DiscoverContext, pattern: string): string[] {
  const start = path.isAbsolute(pattern) ? path.parse(pattern).root : ctx.root;
  let found = [start];
  for (const segment of pattern.split(/[\\/]+/)) {
    if (segment === "" || segment === ".") continue;
    if (!segment.includes("*")) {
      found = found.map((dir) => path.join(dir, segment)).filter((dir) => ctx.fs.kind(dir) === "dir");
      continue;
    }
    const matches = segmentMatcher(segment);
    const next: string[] = [];
    for (const dir of found) {
      for (const name of listDir(ctx, dir)) {
        if (isHidden(name) && !segment.startsWith(".")) continue;
        const child = path.join(dir, name);
        if (matches(name) && ctx.fs.kind(child) === "dir") next.push(child);
      }
    }
    found = next;
  }
  return [...new Set(found)].sort(byString);
}

function segmentMatcher(segment: string): (name: string) => boolean {
  const source = segment
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const re = new RegExp(`^${source}$`);
  return (name) => re.test(name);
}
