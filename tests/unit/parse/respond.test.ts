// `respond [status] [body] (header "Name" = value)*` on module routes and in route-file
// blocks (docs/language.md §2.4, §4): what is a body and what follows the clause.

import { describe, expect, test } from "../../support/jest.js";
import type { RespondClause, RouteDecl } from "../../../compiler/parse/ast.js";
import { parseModule, parseRouteFile } from "../../../compiler/parse/index.js";
import { parseClean, sexpr } from "./helpers.js";

function routes(text: string): RouteDecl[] {
  return parseClean(`module m\n${text}`).decls.filter((d): d is RouteDecl => d.kind === "Route");
}

function shape(r: RespondClause | null): unknown {
  if (r === null) return null;
  return [r.status?.value ?? null, r.body ? sexpr(r.body) : null, r.headers.map((h) => [h.name.value, sexpr(h.value)])];
}

describe("respond on module routes", () => {
  test("status, body and headers are each optional", () => {
    const rs = routes(`
route POST "/api/users" => register respond 201 { user: result }
route GET "/api/articles/:slug" => get_article respond { article: result }
route DELETE "/api/articles/:slug" => delete_article respond 204
route POST "/a" => create respond 201 { a: result } header "Location" = input.base_url + "/a/" + result.slug header "X-N" = "1"
route GET "/plain" => get_article
route GET "/whole" => get_article respond
query get_article() { select 1 as x }
`);
    expect(rs.map((r) => shape(r.respond))).toEqual([
      [201, "{user: result}", []],
      [null, "{article: result}", []],
      [204, null, []],
      [201, "{a: result}", [["Location", '(+ (+ input.base_url "/a/") result.slug)'], ["X-N", '"1"']]],
      null,
      [null, null, []],
    ]);
  });

  test("a bodiless respond does not swallow the next declaration, even one named like a value", () => {
    const ast = parseClean(`module m
route DELETE "/a/:id" => remove respond 204
route GET "/b" => list respond
resource result { id: id }
action remove(id: id) { return null }`);
    expect(ast.decls.map((d) => d.kind)).toEqual(["Route", "Route", "Resource", "Action"]);
  });

  test("lists, negative numbers and nested objects are bodies", () => {
    const [r] = routes(`route GET "/t" => tags respond { tags: [result, "x"], n: -1, o: { p: { q: true } } }`);
    expect(shape(r.respond)).toEqual([null, '{tags: [result, "x"], n: (- 1), o: {p: {q: true}}}', []]);
  });

  test("a broken header is a syntax error and the declarations after it survive", () => {
    const { ast, diagnostics } = parseModule("m.svc", `module m
route POST "/a" => create respond 201 header Location = "x"
query q() { select 1 as x }`);
    expect(diagnostics.map((d) => d.code)).toEqual(["SVC1001"]);
    expect(ast.decls.map((d) => d.kind)).toContain("Query");
  });
});

describe("respond in route-file blocks", () => {
  test("after the data step, before or after redirect", () => {
    const { ast, diagnostics } = parseRouteFile(
      "app/route.svc",
      `POST { invoke m.a { x: input.body.x } respond 201 { a: result } header "Location" = "/a" redirect "/" }
PATCH { invoke m.a { x: input.body.x } redirect "/" respond }
GET { query m.q { } respond { items: records, at: input.headers.x_request_id } }`,
    );
    expect(diagnostics).toEqual([]);
    expect(ast.blocks.map((b) => b.steps.map((s) => s.kind))).toEqual([
      ["DataStep", "Respond", "Redirect"],
      ["DataStep", "Redirect", "Respond"],
      ["DataStep", "Respond"],
    ]);
    const get = ast.blocks[2].steps[1] as RespondClause;
    expect(shape(get)).toEqual([null, "{items: records, at: input.headers.x_request_id}", []]);
  });
});
