// The app's part of the route table: route files, then pages, each in the order the
// compiler sorted them (most specific first), grouped by segment count so a request only
// tries paths that could match. Segments were split at build time.

import { HttpError } from "../errors.js";
import { splitPath } from "../router.js";

interface Compiled<T> {
  item: T;
  /** Literal text per segment, or null for a parameter. */
  literals: (string | null)[];
  names: (string | null)[];
}

export interface Found<T> {
  item: T;
  params: Record<string, string>;
}

export class PathTable<T> {
  private readonly byLength: Compiled<T>[][] = [];

  constructor(items: readonly T[], segmentsOf: (item: T) => readonly string[]) {
    for (const item of items) {
      const segments = segmentsOf(item);
      const n = segments.length;
      while (this.byLength.length <= n) this.byLength.push([]);
      this.byLength[n].push({
        item,
        literals: segments.map((s) => (s.startsWith(":") ? null : s)),
        names: segments.map((s) => (s.startsWith(":") ? s.slice(1) : null)),
      });
    }
  }

  items(): T[] {
    return this.byLength.flatMap((group) => group.map((c) => c.item));
  }

  /** The first item whose pattern matches `path` (no query string); null when none does. */
  find(path: string): Found<T> | null {
    if (this.byLength.length === 0) return null;
    const split = splitPath(path);
    if (split === null) return null;
    // `/` splits into [""]; the root pattern has no segments.
    const segments = split.length === 1 && split[0] === "" ? [] : split;
    const candidates = this.byLength[segments.length];
    if (candidates === undefined) return null;
    for (const c of candidates) {
      if (matches(c, segments)) return { item: c.item, params: params(c, segments) };
    }
    return null;
  }
}

function matches<T>(c: Compiled<T>, segments: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const literal = c.literals[i];
    const s = segments[i];
    if (literal === null) {
      if (s.length === 0) return false;
    } else if (literal !== s && !(s.indexOf("%") !== -1 && decoded(s) === literal)) {
      return false;
    }
  }
  return true;
}

function params<T>(c: Compiled<T>, segments: readonly string[]): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (let i = 0; i < segments.length; i++) {
    const name = c.names[i];
    if (name === null) continue;
    const s = segments[i];
    if (s.indexOf("%") === -1) {
      out[name] = s;
      continue;
    }
    const value = decoded(s);
    if (value === null) throw new HttpError(400, `bad %-escape in path parameter "${name}"`);
    out[name] = value;
  }
  return out;
}

function decoded(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
