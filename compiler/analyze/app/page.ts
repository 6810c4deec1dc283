// Pages (`app/**/page.html` + `page.jq`, docs/language.md §5): front matter read, template checked,
// the `route` resolved to a route file's default GET block, and page.jq compiled to
// JavaScript (or left to jq-web when it is outside the compiled subset). All of it at
// build time: the server only runs what this produced.

import { appCodes as codes } from "../../diagnostics/codes/app.js";
import { PositionMap } from "../../parse/positions.js";
import type { SourceFile } from "../../project/discover/context.js";
import type { PageLoaderModel, PageModel, RouteFileModel } from "../model/app-model.js";
import { type AppPath, routeReference, sameShape } from "./app-paths.js";
import type { ParsedPage } from "../../parse/app.js";
import type { Reporter } from "../shared/context.js";
import { closest } from "../../diagnostics/did-you-mean.js";
import { type AnalyzeSteps, directSteps } from "../steps.js";

export function analyzePage(
  html: SourceFile,
  { front, ok }: ParsedPage,
  jq: SourceFile | null,
  at: AppPath,
  routeFiles: readonly RouteFileModel[],
  brokenGet: ReadonlySet<string>,
  r: Reporter,
  steps: AnalyzeSteps = directSteps,
): PageModel | null {
  const before = r.diagnostics.length;
  const positions = new PositionMap(html.text);
  const template = html.text.slice(front.bodyOffset);
  steps.checkTemplate(html.path, html.text, positions, template, front.bodyOffset, r);
  if (front.title) steps.checkTemplate(html.path, html.text, positions, front.title.value, front.title.contentOffset, r);

  let route: PageModel["route"] = null;
  if (front.route) {
    const written = front.route.value;
    const segments = routeReference(written);
    const file = routeFiles.find((f) => sameShape(f.segments, segments));
    if (!file) {
      r.add(codes.pageRouteUnknown.at(html.path, front.route.span, written, closest(written, routeFiles.map((f) => f.path))));
    } else if (!file.blocks.some((b) => b.method === "GET" && b.handler === null)) {
      // A GET block with errors of its own was reported where it is written.
      if (!brokenGet.has(file.source)) r.add(codes.pageRouteNoGet.at(html.path, front.route.span, file.path, file.source));
    } else {
      const needed = file.segments.filter((s) => s.startsWith(":")).map((s) => s.slice(1));
      const lacking = needed.filter((n) => !at.params.includes(n));
      if (lacking.length > 0) r.add(codes.pageRouteParams.at(html.path, front.route.span, file.path, lacking));
      else route = { source: file.source, path: file.path };
    }
  }

  const loader = jq ? compileLoader(jq, r, steps) : null;
  if (!ok || r.diagnostics.some((d, i) => i >= before && d.severity === "error")) return null;
  return {
    source: html.path,
    path: at.path,
    segments: at.segments,
    title: front.title?.value ?? null,
    template,
    route,
    loader,
  };
}

function compileLoader(jq: SourceFile, r: Reporter, steps: AnalyzeSteps): PageLoaderModel | null {
  const result = steps.compileJq(jq.path, jq.text);
  switch (result.kind) {
    case "compiled":
      return { source: jq.path, kind: "compiled", program: jq.text, plan: result.plan };
    case "fallback":
      r.add(codes.jqFallback.at(jq.path, null, result.reason));
      return { source: jq.path, kind: "jq", program: result.program, reason: result.reason };
    case "error":
      r.addAll(result.diagnostics);
      return null;
  }
}
