// State of one discovery run, passed along explicitly: the file system, the root every
// reported path is relative to, and what has been found and read so far.

import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { configCodes } from "../../diagnostics/codes/config.js";
import type { DiscoverFs } from "./fs.js";

export interface SourceFile {
  /** Relative to the project root, with forward slashes. */
  path: string;
  text: string;
}

export interface DiscoverContext {
  fs: DiscoverFs;
  /** Absolute. */
  root: string;
  diagnostics: Diagnostic[];
  /** Every file read, by relative path: the texts code frames are cut from. */
  sources: Map<string, string>;
}

/** Plain code-unit order: the same on every machine, whatever its locale. */
export function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `abs` relative to the root, with forward slashes; the root itself is ".". */
export function relative(ctx: DiscoverContext, abs: string): string {
  return path.relative(ctx.root, abs).split(path.sep).join("/") || ".";
}

function reason(error: unknown): string {
  if (error && typeof error === "object" && "code" in error && typeof error.code === "string") return error.code;
  return error instanceof Error ? error.message : String(error);
}

/** A file's text, remembered as a source; null (and a diagnostic) when it cannot be read. */
export function readSource(ctx: DiscoverContext, abs: string): SourceFile | null {
  const rel = relative(ctx, abs);
  try {
    const text = ctx.fs.read(abs);
    ctx.sources.set(rel, text);
    return { path: rel, text };
  } catch (error) {
    ctx.diagnostics.push(configCodes.readFailed.at(rel, null, rel, reason(error)));
    return null;
  }
}

/** The names in a folder, sorted; empty (and a diagnostic) when it cannot be read. */
export function listDir(ctx: DiscoverContext, abs: string): string[] {
  try {
    return ctx.fs.list(abs).sort(byString);
  } catch (error) {
    const rel = relative(ctx, abs);
    ctx.diagnostics.push(configCodes.readFailed.at(rel, null, rel, reason(error)));
    return [];
  }
}

/** Hidden entries (`.git`, editor lock files such as `.#tasks.svc`) are never part of a project. */
export const isHidden = (name: string) => name.startsWith(".");
