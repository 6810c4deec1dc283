// The app folder's texts parsed in the parse step (compiler/parse/app.ts): route files and
// the front matter of pages, each by path, with their diagnostics; other files left alone.

import { describe, expect, test } from "../../support/jest.js";
import { parseApp } from "../../../compiler/parse/app.js";

describe("parseApp", () => {
  test("every route.svc becomes a route-file AST and every page.html its front matter, by path", () => {
    const { ast, diagnostics } = parseApp([
      { path: "app/api/tasks/route.svc", text: "GET {\n  query tasks.list\n}\n" },
      { path: "app/tasks/page.html", text: "---\ntitle: Tasks\nroute: /api/tasks\n---\n<ul></ul>\n" },
      { path: "app/tasks/page.jq", text: ".rows" },
      { path: "app/layout.html", text: "---\nnot: front matter\n---\n{{{content}}}" },
    ]);
    expect(diagnostics).toEqual([]);
    expect([...ast.routeFiles.keys()]).toEqual(["app/api/tasks/route.svc"]);
    expect(ast.routeFiles.get("app/api/tasks/route.svc")?.blocks.map((b) => b.method.name)).toEqual(["GET"]);
    const page = ast.pages.get("app/tasks/page.html");
    expect([page?.ok, page?.front.title?.value, page?.front.route?.value]).toEqual([true, "Tasks", "/api/tasks"]);
    expect([...ast.pages.keys()]).toEqual(["app/tasks/page.html"]);
  });

  test("a broken route file and broken front matter are reported with their files; the page is marked not ok", () => {
    const { ast, diagnostics } = parseApp([
      { path: "app/api/x/route.svc", text: "GET {\n  query\n" },
      { path: "app/x/page.html", text: "---\ntitle: 'open\n---\n<p></p>\n" },
      { path: "app/y/page.html", text: "<p>no front matter</p>\n" },
    ]);
    expect(diagnostics.some((d) => d.file === "app/api/x/route.svc" && d.severity === "error")).toBe(true);
    expect(diagnostics.some((d) => d.file === "app/x/page.html" && d.severity === "error")).toBe(true);
    expect(ast.routeFiles.has("app/api/x/route.svc")).toBe(true);
    expect(ast.pages.get("app/x/page.html")?.ok).toBe(false);
    expect(ast.pages.get("app/y/page.html")).toEqual({ ok: true, front: { title: null, route: null, bodyOffset: 0 } });
  });

  test("the route-file parser is the caller's to choose (svc dev passes its cache's)", () => {
    const seen: string[] = [];
    parseApp([{ path: "route.svc", text: "GET { query m.q }\n" }], (file) => {
      seen.push(file);
      return { ast: { kind: "RouteFile", file, blocks: [], span: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } } }, diagnostics: [] };
    });
    expect(seen).toEqual(["route.svc"]);
  });
});
