// The one route table of a server (docs/language.md §2.4): every target a request can reach
// (module endpoints, declared routes, webhooks, route files, pages, files the server serves),
// in the order the compiler emitted them, matched once per request. The first entry whose
// path and method both match wins; when some entries match the path but none the method,
// the answer is a 405 listing their methods.
//
// Exact paths are looked up in a Map, parameter routes tried by segment count, so a request
// only looks at entries that could match; an exact entry is taken over a parameter one only
// when it comes first in the table.

import { HttpError, SvcError } from "./errors.js";
import { type LoggedPath, loggedPath } from "./request-line.js";
import { newArgs } from "./query-string.js";
import type { HttpMethod, RouteSpec, RouteTarget } from "../contract/index.js";

/** A target the runtime binds at start: a webhook's name becomes its verifying endpoint. */
export type BoundTarget = Exclude<RouteTarget, { kind: "webhook" }>;

export interface RouteMatch {
  readonly target: BoundTarget;
  /** Path parameters, URL-decoded; null for an exact path. */
  readonly params: Record<string, string> | null;
  /** The entry as declared, for logs. */
  readonly path: string;
  /**
   * `path` as the request log writes it, made once; null when it would need escaping. For a
   * request whose path is exactly the declared one.
   */
  readonly logged: LoggedPath | null;
}

/** The path exists but not for this method: answer 405 with these in `Allow`. */
export interface MethodMismatch {
  allow: string[];
}

export type MatchResult = RouteMatch | MethodMismatch | null;

interface Entry {
  /** Position in the table: the lower wins. */
  order: number;
  method: HttpMethod;
  path: string;
  target: BoundTarget;
  /** Literal text per segment, or null for a parameter; null for an exact path. */
  literals: (string | null)[] | null;
  names: (string | null)[] | null;
  /** The answer when this entry matches without parameters, made once (a match is only read). */
  bare: RouteMatch;
}

const SLASH = 47; // /

export class Router {
  /** Entries by exact path, in table order. */
  private readonly exact = new Map<string, Entry[]>();
  /** Parameter entries by segment count, in table order. */
  private readonly byLength: Entry[][] = [];
  private readonly all: Entry[] = [];
  /** The table position of the first parameter entry: an exact match before it needs no other look. */
  private firstParam = Infinity;

  /** `bind` turns a webhook's name into its endpoint (checked against its credentials at start). */
  constructor(routes: readonly RouteSpec[], bind: (target: RouteTarget) => BoundTarget = unbound) {
    routes.forEach((route, order) => {
      const segments = route.segments ?? null;
      const target = bind(route.target);
      const entry: Entry = {
        order,
        method: route.method,
        path: route.path,
        target,
        literals: segments === null ? null : segments.map((s) => (s.startsWith(":") ? null : s)),
        names: segments === null ? null : segments.map((s) => (s.startsWith(":") ? s.slice(1) : null)),
        bare: { target, params: null, path: route.path, logged: loggedPath(route.path) },
      };
      this.all.push(entry);
      if (segments === null) {
        const list = this.exact.get(route.path);
        if (list === undefined) this.exact.set(route.path, [entry]);
        else list.push(entry);
      } else {
        while (this.byLength.length <= segments.length) this.byLength.push([]);
        this.byLength[segments.length].push(entry);
        this.firstParam = Math.min(this.firstParam, order);
      }
    });
  }

  /**
   * Hot path: runs once for every request. `path` has no query string; `method` is GET for a
   * HEAD. Throws a 400 HttpError when a path parameter holds a broken %-escape.
   */
  match(method: string, path: string): MatchResult {
    const exact = this.exact.get(path) ?? this.exactByDecodedPath(path);
    let best: Entry | null = null;
    if (exact !== undefined) {
      for (const e of exact) {
        if (e.method === method) {
          best = e;
          break;
        }
      }
    }
    let segments: string[] | null = null;
    let params: Record<string, string> | null = null;
    if (best === null ? this.byLength.length > 0 : best.order > this.firstParam) {
      segments = pathSegments(path);
      const candidates = segments === null ? undefined : this.byLength[segments.length];
      if (candidates !== undefined) {
        for (const e of candidates) {
          if (best !== null && e.order > best.order) break;
          if (e.method === method && segmentsMatch(e, segments!)) {
            best = e;
            params = extractParams(e, segments!);
            break;
          }
        }
      }
    }
    if (best !== null) return params === null ? best.bare : { target: best.target, params, path: best.path, logged: best.bare.logged };
    return this.mismatch(exact, segments ?? pathSegments(path));
  }

  /** The methods something answers at `path`, OPTIONS aside; null when nothing is there. */
  allowed(path: string): string[] | null {
    const found = this.mismatch(this.exact.get(path) ?? this.exactByDecodedPath(path), pathSegments(path));
    return found === null ? null : found.allow;
  }

  /** Every method some entry answers, for CORS preflights. */
  methods(): Set<string> {
    return new Set(this.all.map((e) => e.method));
  }

  /** Every target of one kind, in table order, each page, file or endpoint once (the pages a server compiles at start, say). */
  targets<K extends BoundTarget["kind"]>(kind: K): Extract<BoundTarget, { kind: K }>[] {
    const seen = new Set<unknown>();
    const out: Extract<BoundTarget, { kind: K }>[] = [];
    for (const e of this.all) {
      const t = e.target;
      if (t.kind !== kind) continue;
      const what = t.kind === "page" ? t.page : t.kind === "file" ? t.file : t.kind === "endpoint" ? t.endpoint : t;
      if (seen.has(what)) continue;
      seen.add(what);
      out.push(t as Extract<BoundTarget, { kind: K }>);
    }
    return out;
  }

  /** No entry for this method: the methods of the entries at this path, or null for a 404. */
  private mismatch(exact: Entry[] | undefined, segments: string[] | null): MethodMismatch | null {
    const allow: string[] = [];
    if (exact !== undefined) for (const e of exact) if (!allow.includes(e.method)) allow.push(e.method);
    const candidates = segments === null ? undefined : this.byLength[segments.length];
    if (candidates !== undefined) {
      for (const e of candidates) if (!allow.includes(e.method) && segmentsMatch(e, segments!)) allow.push(e.method);
    }
    return allow.length === 0 ? null : { allow };
  }

  /** Clients may %-encode characters of an exact path (`%3A` for `:`); only tried on a miss. */
  private exactByDecodedPath(path: string): Entry[] | undefined {
    if (path.indexOf("%") === -1) return undefined;
    const decoded = safeDecode(path);
    return decoded === null ? undefined : this.exact.get(decoded);
  }
}

function unbound(target: RouteTarget): BoundTarget {
  if (target.kind === "webhook") throw new SvcError("SVC_ERR_INTERNAL", `webhook ${target.name} is in the route table but was not bound`);
  return target;
}

/** `/v1/tasks/42` → `["v1", "tasks", "42"]`; `/` → `[]`. A path not starting with `/` gives null. */
export function pathSegments(path: string): string[] | null {
  if (path.charCodeAt(0) !== SLASH) return null;
  if (path.length === 1) return [];
  const segments: string[] = [];
  let start = 1;
  for (;;) {
    const end = path.indexOf("/", start);
    if (end === -1) {
      segments.push(path.slice(start));
      return segments;
    }
    segments.push(path.slice(start, end));
    start = end + 1;
  }
}

function segmentsMatch(e: Entry, segments: readonly string[]): boolean {
  const literals = e.literals!;
  for (let i = 0; i < segments.length; i++) {
    const literal = literals[i];
    const segment = segments[i];
    if (literal === null) {
      // An empty segment (`/v1/tasks//start`) is not a value for a parameter.
      if (segment.length === 0) return false;
    } else if (literal !== segment && !(segment.indexOf("%") !== -1 && safeDecode(segment) === literal)) {
      return false;
    }
  }
  return true;
}

function extractParams(e: Entry, segments: readonly string[]): Record<string, string> {
  const names = e.names!;
  const params: Record<string, string> = newArgs();
  for (let i = 0; i < segments.length; i++) {
    const name = names[i];
    if (name !== null) params[name] = decodeSegment(segments[i], name);
  }
  return params;
}

function decodeSegment(segment: string, name: string): string {
  if (segment.indexOf("%") === -1) return segment;
  const decoded = safeDecode(segment);
  if (decoded === null) throw new HttpError(400, `bad %-escape in path parameter "${name}"`, { code: "SVC_ERR_BAD_URL" });
  return decoded;
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Splits a request target into path and query string without building a URL object. */
export function splitTarget(target: string): { path: string; query: string } {
  const q = target.indexOf("?");
  return q === -1 ? { path: target, query: "" } : { path: target.slice(0, q), query: target.slice(q + 1) };
}
