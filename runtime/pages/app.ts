// The app folder's share of one server (docs/language.md §2.4, §4–5): the route files, pages,
// the assets the server serves itself (Unpoly) and public/ that the route table
// (runtime/router.ts) sent a request to. A browser asking for a path nothing answers gets an
// HTML 404 page rather than JSON.

import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../core/errors.js";
import type { IdempotencyStore } from "../idempotency/index.js";
import { loadJqWeb } from "../jq/index.js";
import type { Logger } from "../core/log.js";
import { newArgs, parseQueryString } from "../core/query-string.js";
import type { BoundTarget, Router } from "../core/router.js";
import { PublicFiles, sendAsset } from "../assets/index.js";
import type { ErrorShape, SiteOptions } from "../contract/index.js";
import type { CallContext, Database } from "../contract/index.js";
import type { UnpolyAssets } from "../assets/index.js";
import { acceptsHtml } from "./caller.js";
import { HTML_SECURITY_HEADERS } from "../core/answer/index.js";
import { Pages } from "./pages.js";
import { type CompiledPage, compilePage, type Renderer } from "./render.js";
import { serveRouteFile } from "./route-request.js";
import { parseTemplate } from "./templates.js";
import type { AppSpec, PageSpec, Spans } from "../contract/index.js";
import type { Uploads } from "../uploads/index.js";

export interface AppDeps {
  db: Database;
  log: Logger;
  maxBodySize: number;
  /** `file` arguments of blocks' actions (runtime/uploads); null when nothing takes a file. */
  uploads?: Uploads | null;
  /** Where answers to route-file posts with an Idempotency-Key are kept; null when no action is called over HTTP. */
  keys?: IdempotencyStore | null;
  site: SiteOptions;
  /** svc.toml [errors]: the error body of blocks with `respond`; null keeps the envelope. */
  errors: ErrorShape | null;
  /** Spans of page render and jq loader when traced; null or absent otherwise. */
  spans?: Spans | null;
}

export class App {
  private readonly pages: Pages;
  private readonly compiled = new Map<PageSpec, CompiledPage>();
  private readonly publicFiles: PublicFiles;
  readonly unpoly: UnpolyAssets;
  private readonly hasPages: boolean;
  private readonly deps: AppDeps;

  /**
   * Parses every template of the pages in `router`'s table and starts loading jq-web if a page
   * needs it: start-up work, never per request.
   */
  constructor(spec: AppSpec, router: Router, unpoly: UnpolyAssets, deps: AppDeps) {
    this.unpoly = unpoly;
    const pages = router.targets("page").map((t) => t.page);
    const renderer: Renderer = {
      db: deps.db,
      log: deps.log,
      layout: parseTemplate(spec.layout),
      errorContent: parseTemplate(spec.errorPage),
      unpoly,
      jq: pages.some((p) => p.load === null && p.jq !== null) ? loadJqWeb() : null,
      site: deps.site,
      spans: deps.spans ?? null,
    };
    this.deps = deps;
    // A failed load surfaces on the first request that needs jq-web; until then it must not
    // count as an unhandled rejection.
    renderer.jq?.catch(() => undefined);
    for (const page of pages) this.compiled.set(page, compilePage(page));
    this.pages = new Pages(renderer, (path) => this.pageAt(router, path), deps.maxBodySize);
    this.publicFiles = new PublicFiles(spec.publicFiles, spec.publicRoot, HTML_SECURITY_HEADERS);
    this.hasPages = pages.length > 0;
  }

  /** A browser asking for a path nothing answers gets the HTML 404 page rather than JSON. */
  answersNotFound(req: IncomingMessage, method: string): boolean {
    return method === "GET" && this.hasPages && acceptsHtml(req);
  }

  sendNotFound(res: ServerResponse): void {
    this.pages.sendNotFound(res);
  }

  /**
   * Answers a request the route table sent here. `rawQuery` is the query string; `ctx` carries
   * the server's identity: the caller is resolved here for route files and pages.
   */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    path: string,
    found: { target: AppTarget; params: Record<string, string> | null },
    rawQuery: string,
    ctx: CallContext,
  ): Promise<void> {
    const target = found.target;
    if (target.kind === "asset") {
      const asset = this.unpoly.byPath.get(path) ?? this.publicFiles.get(path);
      if (asset === undefined) throw new HttpError(404, "not found", { code: "SVC_ERR_NOT_FOUND" });
      sendAsset(req, res, asset);
      return;
    }
    // Who is calling, once, before a route file or page runs (docs/language.md §6); files need nobody.
    if (ctx.identity) {
      const caller = ctx.identity.resolve(req, res, ctx.span);
      ctx.caller = caller instanceof Promise ? await caller : caller;
    }
    const params = found.params ?? newArgs();
    if (target.kind === "file") {
      await serveRouteFile(this.pages, this.deps, req, res, target.file, method, params, parseQueryString(rawQuery), ctx);
    } else {
      await this.pages.serve(res, this.compiled.get(target.page)!, params, rawQuery, ctx);
    }
  }

  /** The page the route table has at `path`, for re-rendering the page a failed form came from. */
  private pageAt(router: Router, path: string): { page: CompiledPage; params: Record<string, string> } | null {
    const found = router.match("GET", path);
    if (found === null || "allow" in found || found.target.kind !== "page") return null;
    return { page: this.compiled.get(found.target.page)!, params: found.params ?? newArgs() };
  }
}

/** What the app answers of the route table. */
export type AppTarget = Extract<BoundTarget, { kind: "file" | "page" | "asset" }>;
