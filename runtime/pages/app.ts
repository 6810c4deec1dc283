// The app folder's share of one server (docs/language.md §2.4, §4–5). The module routes and
// webhooks match first (runtime/router.ts); what they leave goes, in order, to route files,
// pages, the assets the server serves itself (Unpoly), and public/. A browser asking for a
// path nothing answers gets an HTML 404 page rather than JSON.

import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../errors.js";
import type { IdempotencyStore } from "../idempotency/index.js";
import { loadJqWeb } from "../jq.js";
import type { Logger } from "../log.js";
import { parseQueryString } from "../query-string.js";
import type { Router } from "../router.js";
import { PublicFiles, type StaticAsset, sendAsset } from "../static.js";
import type { ErrorShape, SiteOptions } from "../respond.js";
import type { CallContext, Database } from "../types.js";
import { unpolyAssets, type UnpolyAssets } from "../unpoly.js";
import { acceptsHtml } from "./caller.js";
import { HTML_SECURITY_HEADERS } from "./headers.js";
import { type Found, PathTable } from "./match.js";
import { Pages } from "./pages.js";
import { type CompiledPage, compilePage, type Renderer } from "./render.js";
import { serveRouteFile } from "./route-request.js";
import { parseTemplate } from "./templates.js";
import type { AppSpec, RouteFileSpec } from "./types.js";

export interface AppDeps {
  db: Database;
  log: Logger;
  maxBodySize: number;
  /** Where answers to route-file posts with an Idempotency-Key are kept; null when no action is called over HTTP. */
  keys?: IdempotencyStore | null;
  site: SiteOptions;
  /** svc.toml [errors]: the error body of blocks with `respond`; null keeps the envelope. */
  errors: ErrorShape | null;
}

type Lookup =
  | { kind: "route"; file: RouteFileSpec; params: Record<string, string> }
  | { kind: "page"; found: Found<CompiledPage> }
  | { kind: "asset"; asset: StaticAsset }
  | { kind: "allow"; allow: string[] };

export class App {
  private readonly routeFiles: PathTable<RouteFileSpec>;
  private readonly pages: Pages;
  private readonly publicFiles: PublicFiles;
  private readonly unpoly: UnpolyAssets;
  private readonly hasPages: boolean;
  private readonly deps: AppDeps;

  /** Parses every template and starts loading jq-web if a page needs it: start-up work, never per request. */
  constructor(spec: AppSpec, deps: AppDeps) {
    this.unpoly = unpolyAssets();
    const renderer: Renderer = {
      db: deps.db,
      log: deps.log,
      layout: parseTemplate(spec.layout),
      errorContent: parseTemplate(spec.errorPage),
      unpoly: this.unpoly,
      jq: spec.pages.some((p) => p.load === null && p.jq !== null) ? loadJqWeb() : null,
      site: deps.site,
    };
    this.deps = deps;
    // A failed load surfaces on the first request that needs jq-web; until then it must not
    // count as an unhandled rejection.
    renderer.jq?.catch(() => undefined);
    this.routeFiles = new PathTable(spec.routeFiles, (f) => f.segments);
    this.pages = new Pages(renderer, spec.pages.map(compilePage), deps.maxBodySize);
    this.publicFiles = new PublicFiles(spec.publicFiles, spec.publicRoot, HTML_SECURITY_HEADERS);
    this.hasPages = spec.pages.length > 0;
  }

  /**
   * Whether this request is the app's: something of the app answers its path and no module
   * route answers its method there (module routes match first). Throws a 400 for a broken
   * %-escape in a path parameter.
   */
  claims(req: IncomingMessage, method: string, path: string, router: Router): boolean {
    const own = this.lookup(method, path);
    if (own !== null) {
      const m = router.match(method, path);
      if (own.kind === "allow") return m === null;
      return m === null || "allow" in m;
    }
    return method === "GET" && this.hasPages && acceptsHtml(req) && router.match(method, path) === null;
  }

  /**
   * Answers a request `claims` accepted. `target` is the request target (path and query);
   * `ctx` carries the server's identity: the caller is resolved here for route files and pages.
   */
  async handle(req: IncomingMessage, res: ServerResponse, method: string, target: string, ctx: CallContext): Promise<void> {
    const q = target.indexOf("?");
    const path = q === -1 ? target : target.slice(0, q);
    const rawQuery = q === -1 ? "" : target.slice(q + 1);
    const found = this.lookup(method, path);
    if (found === null) {
      this.pages.sendNotFound(res);
      return;
    }
    // Who is calling, once, before a route file or page runs (docs/language.md §6); files need nobody.
    if ((found.kind === "route" || found.kind === "page") && ctx.identity) {
      const caller = ctx.identity.resolve(req, res);
      ctx.caller = caller instanceof Promise ? await caller : caller;
    }
    switch (found.kind) {
      case "route":
        await serveRouteFile(this.pages, this.deps, req, res, found.file, method, found.params, parseQueryString(rawQuery), ctx);
        return;
      case "page":
        await this.pages.serve(res, found.found.item, found.found.params, rawQuery, ctx);
        return;
      case "asset":
        sendAsset(req, res, found.asset);
        return;
      case "allow":
        throw new HttpError(405, "method not allowed", { headers: { Allow: found.allow.join(", ") } });
    }
  }

  /** The methods the app answers at `path` (for OPTIONS); null when nothing of the app is there. */
  allowed(path: string): string[] | null {
    const out = new Set<string>();
    const file = this.routeFiles.find(path);
    if (file !== null) for (const b of file.item.blocks) out.add(b.method);
    const asset = this.unpoly.byPath.get(path) ?? this.publicFiles.get(path);
    if (this.pages.table.find(path) !== null || asset !== undefined) out.add("GET");
    return out.size > 0 ? [...out] : null;
  }

  /** Every method a route file answers, for CORS preflights; GET when there are pages. */
  methods(): Set<string> {
    const out = new Set<string>(this.hasPages ? ["GET"] : []);
    for (const f of this.routeFiles.items()) for (const b of f.blocks) out.add(b.method);
    return out;
  }

  // Matching order within the app: route files, pages, Unpoly, public/.
  private lookup(method: string, path: string): Lookup | null {
    const allow: string[] = [];
    const file = this.routeFiles.find(path);
    if (file !== null) {
      if (file.item.blocks.some((b) => b.method === method)) return { kind: "route", file: file.item, params: file.params };
      for (const b of file.item.blocks) if (!allow.includes(b.method)) allow.push(b.method);
    }
    const page = this.pages.table.find(path);
    if (page !== null) {
      if (method === "GET") return { kind: "page", found: page };
      if (!allow.includes("GET")) allow.push("GET");
    }
    if (method === "GET") {
      const asset = this.unpoly.byPath.get(path) ?? this.publicFiles.get(path);
      if (asset !== undefined) return { kind: "asset", asset };
    }
    return allow.length > 0 ? { kind: "allow", allow } : null;
  }
}
