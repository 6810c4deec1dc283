// The app folder of a project (docs/language.md §4–5) as one part of the model: route files,
// pages, the layout and public/, plus the route-table claims they make, which join the
// modules' routes and webhooks in the one check that no method and path is claimed twice.

import { appCodes as codes } from "../../diagnostics/codes/app.js";
import { PositionMap } from "../../parse/positions.js";
import type { Span } from "../../parse/ast.js";
import type { AppModel, LayoutModel, PageModel, PublicFileModel, RouteFileModel } from "../model/app-model.js";
import { type AppPath, bySpecificity, folderPath } from "./app-paths.js";
import type { SourceFile } from "../../project/discover/context.js";
import type { ActionModel, HttpMethod, QueryModel, ResourceModel, RouteModel, WebhookModel } from "../model/model.js";
import { analyzePage } from "./page.js";
import { identityCodes } from "../../diagnostics/codes/identity.js";
import { type AppScope, analyzeRouteFile } from "./route-file.js";
import type { LocatedRoute } from "../declarations/route.js";
import type { Reporter } from "../shared/context.js";
import { place } from "../shared/context.js";
import { type AnalyzeSteps, directSteps } from "../steps.js";
import { type ParsedApp, isNamed } from "../../parse/app.js";

export type { AppScope } from "./route-file.js";

export interface AppInput {
  /** The app folder, relative to the project root ("app"). */
  dir: string;
  /** Every route.svc, page.html and page.jq below it, and layout.html at its top. */
  files: SourceFile[];
  /** Its route files and pages' front matter, parsed in the parse step. */
  parsed: ParsedApp;
  publicFiles: PublicFileModel[];
}

/** Paths the server answers itself, before any page or route file. */
export const RESERVED: readonly { prefix: string; owner: string }[] = [
  { prefix: "/health", owner: "the health check" },
  { prefix: "/_svc/", owner: "the assets the server serves itself (Unpoly)" },
];

export function analyzeApp(
  input: AppInput,
  scope: AppScope,
  r: Reporter,
  steps: AnalyzeSteps = directSteps,
): { app: AppModel; claims: LocatedRoute[] } {
  // Claims in matching order (route files, then pages; each most specific first), so the
  // table check's "shadowed" warning speaks of the order the server really matches in.
  const fileClaims: LocatedRoute[] = [];
  const pageClaims: LocatedRoute[] = [];
  const byName = (name: string) => input.files.filter((f) => isNamed(f.path, name));

  const routeFiles: RouteFileModel[] = [];
  // Route files whose default GET block has errors: their pages need not say it is missing.
  const brokenGet = new Set<string>();
  for (const f of byName("route.svc")) {
    const at = located(input.dir, f, r);
    const ast = input.parsed.routeFiles.get(f.path);
    if (!at || !ast) continue;
    const { model, claims: blocks, declaresDefaultGet } = analyzeRouteFile(ast, at, scope, r);
    routeFiles.push(model);
    if (declaresDefaultGet && !model.blocks.some((b) => b.method === "GET" && b.handler === null)) brokenGet.add(model.source);
    for (const b of blocks) fileClaims.push(claim(at, b.method, f.path, b.span));
  }
  routeFiles.sort(bySpecificity);

  const pages: PageModel[] = [];
  const jqFiles = new Map(byName("page.jq").map((f) => [folderOf(f.path), f]));
  for (const f of byName("page.html")) {
    const at = located(input.dir, f, r);
    const jq = jqFiles.get(folderOf(f.path)) ?? null;
    jqFiles.delete(folderOf(f.path));
    const parsed = input.parsed.pages.get(f.path);
    if (!at || !parsed) continue;
    const page = analyzePage(f, parsed, jq, at, routeFiles, brokenGet, r, steps);
    if (!page) continue;
    pages.push(page);
    pageClaims.push(claim(at, "GET", f.path, new PositionMap(f.text).span(0, 0)));
  }
  for (const orphan of jqFiles.values()) r.add(codes.jqWithoutPage.at(orphan.path, null));
  pages.sort(bySpecificity);

  const layout = readLayout(input, r, steps);
  if (scope.identity !== true) {
    for (const f of [...byName("page.html"), ...byName("layout.html")]) checkTemplateAuth(f, r);
  }
  const bySegments = (a: LocatedRoute, b: LocatedRoute) => bySpecificity(a.route, b.route);
  const claims = [...fileClaims.sort(bySegments), ...pageClaims.sort(bySegments)];
  return { app: { routeFiles, pages, layout, publicFiles: input.publicFiles }, claims };
}

function located(dir: string, f: SourceFile, r: Reporter): AppPath | null {
  const at = folderPath(dir, f.path, r);
  if (!at) return null;
  const reserved = RESERVED.find((x) => {
    const base = x.prefix.replace(/\/$/, "");
    return at.path === base || at.path.startsWith(`${base}/`);
  });
  if (reserved) {
    r.add(codes.reservedPath.at(f.path, null, at.path, reserved.owner));
    return null;
  }
  return at;
}

/** A route-table entry for the duplicate check; app routes have no module or target of their own. */
function claim(at: AppPath, method: HttpMethod, file: string, span: Span): LocatedRoute {
  const route: RouteModel = {
    module: "",
    method,
    path: at.path,
    segments: at.segments,
    target: { kind: "query", module: "", name: "" },
    source: place(file, span),
  };
  return { route, file, span };
}

/** `{{auth.id}}`, `{{#auth}}`…: a template naming the caller in a project without identity is SVC7005. */
function checkTemplateAuth(f: { path: string; text: string }, r: Reporter): void {
  const tag = /\{\{[#^&{]?\s*(auth)\b/g;
  let m: RegExpExecArray | null;
  const positions = new PositionMap(f.text);
  while ((m = tag.exec(f.text)) !== null) {
    const at = m.index + m[0].length - 4;
    r.add(identityCodes.authWithoutIdentity.at(f.path, positions.span(at, at + 4)));
  }
}

function folderOf(file: string): string {
  const slash = file.lastIndexOf("/");
  return slash === -1 ? "" : file.slice(0, slash);
}

function readLayout(input: AppInput, r: Reporter, steps: AnalyzeSteps): LayoutModel | null {
  const file = input.dir === "." ? "layout.html" : `${input.dir}/layout.html`;
  const f = input.files.find((x) => x.path === file);
  if (!f) return null;
  const raw = steps.checkTemplate(f.path, f.text, new PositionMap(f.text), f.text, 0, r);
  if (raw && !raw.has("content")) r.add(codes.layoutWithoutContent.at(f.path, null));
  return { source: f.path, template: f.text };
}

/** Every query and action of the project, keyed `module.name`, as route files name them. */
export function appScope(
  modules: readonly string[],
  queries: readonly QueryModel[],
  actions: readonly ActionModel[],
  resources: ReadonlyMap<string, ResourceModel>,
  webhooks: readonly WebhookModel[],
  identity = false,
): AppScope {
  return {
    identity,
    modules,
    queries: new Map(queries.map((q) => [`${q.module}.${q.name}`, q])),
    actions: new Map(actions.map((a) => [`${a.module}.${a.name}`, a])),
    resources,
    webhookHandlers: new Map(webhooks.map((w) => [`${w.handler.module}.${w.handler.name}`, `${w.module}.${w.name}`])),
  };
}
