// Maps (method, path) to an endpoint. Built once from the ServerSpec: static routes
// (`/api/<module>:<name>`) by exact path in a Map, then declared param routes in
// declaration order, grouped by segment count so a request only tries routes that
// could match. First match wins (docs/language.md §2.4).

import { HttpError } from "./errors.js";
import { newArgs } from "./query-string.js";
import type { EndpointSpec, ParamRoute, StaticRoute } from "./types.js";

export interface RouteMatch {
  endpoint: EndpointSpec;
  /** Path parameters, URL-decoded; null for a static route. */
  params: Record<string, string> | null;
  /** A declared route's `respond`: it answers without the envelope. */
  respond?: ParamRoute["respond"];
}

/** The path exists but not for this method: answer 405 with these in `Allow`. */
export interface MethodMismatch {
  allow: string[];
}

export type MatchResult = RouteMatch | MethodMismatch | null;

interface StaticEntry {
  byMethod: Map<string, EndpointSpec>;
  allow: string[];
}

interface CompiledParamRoute {
  method: string;
  endpoint: EndpointSpec;
  respond: ParamRoute["respond"];
  /** Literal segment text, or null where the segment is a parameter. */
  literals: (string | null)[];
  /** Parameter name per segment, or null where the segment is literal. */
  names: (string | null)[];
}

const SLASH = 47; // /

export class Router {
  private readonly statics = new Map<string, StaticEntry>();
  /** Index = number of path segments. */
  private readonly paramRoutes: CompiledParamRoute[][] = [];

  constructor(staticRoutes: readonly StaticRoute[], paramRoutes: readonly ParamRoute[]) {
    for (const route of staticRoutes) {
      let entry = this.statics.get(route.path);
      if (entry === undefined) {
        entry = { byMethod: new Map(), allow: [] };
        this.statics.set(route.path, entry);
      }
      if (!entry.byMethod.has(route.method)) {
        entry.byMethod.set(route.method, route.endpoint);
        entry.allow.push(route.method);
      }
    }
    for (const route of paramRoutes) {
      const compiled: CompiledParamRoute = {
        method: route.method,
        endpoint: route.endpoint,
        respond: route.respond,
        literals: route.segments.map((s) => (s.startsWith(":") ? null : s)),
        names: route.segments.map((s) => (s.startsWith(":") ? s.slice(1) : null)),
      };
      const count = route.segments.length;
      while (this.paramRoutes.length <= count) this.paramRoutes.push([]);
      this.paramRoutes[count].push(compiled);
    }
  }

  /**
   * Hot path: runs for every request. `path` has no query string. Throws a 400 HttpError
   * when a path parameter holds a broken %-escape.
   */
  match(method: string, path: string): MatchResult {
    const entry = this.statics.get(path) ?? this.staticByDecodedPath(path);
    if (entry !== undefined) {
      const endpoint = entry.byMethod.get(method);
      if (endpoint !== undefined) return { endpoint, params: null };
    }
    const segments = this.paramRoutes.length > 0 ? splitPath(path) : null;
    const candidates = segments === null ? undefined : this.paramRoutes[segments.length];
    let allow: string[] | null = entry === undefined ? null : entry.allow.slice();
    if (candidates !== undefined && segments !== null) {
      for (const route of candidates) {
        if (!segmentsMatch(route, segments)) continue;
        if (route.method === method) {
          const params = extractParams(route, segments);
          return route.respond === undefined
            ? { endpoint: route.endpoint, params }
            : { endpoint: route.endpoint, params, respond: route.respond };
        }
        allow ??= [];
        if (!allow.includes(route.method)) allow.push(route.method);
      }
    }
    return allow === null ? null : { allow };
  }

  /** Every method some route answers, for CORS preflights. */
  methods(): Set<string> {
    const out = new Set<string>();
    for (const entry of this.statics.values()) for (const m of entry.allow) out.add(m);
    for (const group of this.paramRoutes) for (const r of group) out.add(r.method);
    return out;
  }

  /** Clients may %-encode characters of a static path (`%3A` for `:`); only tried on a miss. */
  private staticByDecodedPath(path: string): StaticEntry | undefined {
    if (path.indexOf("%") === -1) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return undefined;
    }
    return this.statics.get(decoded);
  }
}

/** `/v1/tasks/42` → `["v1", "tasks", "42"]`; `/` → `[""]`. A path not starting with `/` gives null. */
export function splitPath(path: string): string[] | null {
  if (path.charCodeAt(0) !== SLASH) return null;
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

function segmentsMatch(route: CompiledParamRoute, segments: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const literal = route.literals[i];
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

function extractParams(route: CompiledParamRoute, segments: readonly string[]): Record<string, string> {
  const params: Record<string, string> = newArgs();
  for (let i = 0; i < segments.length; i++) {
    const name = route.names[i];
    if (name !== null) params[name] = decodeSegment(segments[i], name);
  }
  return params;
}

function decodeSegment(segment: string, name: string): string {
  if (segment.indexOf("%") === -1) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `bad %-escape in path parameter "${name}"`);
  }
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Splits a request target into path and query string without building a URL object. */
export function splitTarget(target: string): { path: string; query: string } {
  const q = target.indexOf("?");
  return q === -1 ? { path: target, query: "" } : { path: target.slice(0, q), query: target.slice(q + 1) };
}
