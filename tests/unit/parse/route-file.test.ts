import { describe, expect, test } from "../../support/jest.js";
import type { DataStep, RedirectStep } from "../../../compiler/parse/ast.js";
import { parseRouteFile } from "../../../compiler/parse/index.js";
import { sexpr, textAt } from "./helpers.js";

// The two route files of docs/language.md §4, verbatim.
const listRoute = `GET {
  query task_tracker.list_tasks { status: input.query.status, limit: input.query.limit, offset: input.query.offset }
}

POST {
  invoke task_tracker.create_task { title: input.body.title, description: input.body.description,
                                    priority: input.body.priority, assignee: input.body.assignee }
  redirect "/tasks"
}
`;

const itemRoute = `# app/api/task_tracker/[id]/route.svc
GET {
  fetch task_tracker.get_task { id: input.params.id }
}
POST start_task {
  invoke task_tracker.start_task { id: input.params.id, assignee: input.body.assignee }
  redirect "/tasks/" + input.params.id
}
POST complete_task { invoke task_tracker.complete_task { id: input.params.id }  redirect "/tasks/" + input.params.id }
POST delete_task { invoke task_tracker.delete_task { id: input.params.id }  redirect "/tasks" }
`;

function parseClean(text: string) {
  const { ast, diagnostics } = parseRouteFile("app/api/task_tracker/route.svc", text);
  expect(diagnostics).toEqual([]);
  return ast;
}

describe("route files", () => {
  test("a data step without arguments needs no braces; the next step or the block's end follows it", () => {
    const ast = parseClean(`GET {\n  query shop.all_items\n}\nPOST {\n  invoke shop.restock\n  redirect "/items"\n}\n`);
    const [get, post] = ast.blocks;
    expect(get.steps.map((s) => (s.kind === "DataStep" ? [s.op, s.target.name, s.args] : s.kind))).toEqual([["query", "all_items", []]]);
    expect(post.steps.map((s) => s.kind)).toEqual(["DataStep", "Redirect"]);
    expect((post.steps[0] as DataStep).args).toEqual([]);
  });

  test("the list route: one block per method, data steps with their arguments", () => {
    const ast = parseClean(listRoute);
    expect(ast).toMatchObject({ kind: "RouteFile", file: "app/api/task_tracker/route.svc" });
    expect(ast.blocks.map((b) => [b.method.name, b.name, b.steps.map((s) => s.kind)])).toEqual([
      ["GET", null, ["DataStep"]],
      ["POST", null, ["DataStep", "Redirect"]],
    ]);
    const query = ast.blocks[0].steps[0] as DataStep;
    expect([query.op, query.module.name, query.target.name]).toEqual(["query", "task_tracker", "list_tasks"]);
    expect(query.args.map((a) => [a.key.name, sexpr(a.value)])).toEqual([
      ["status", "input.query.status"],
      ["limit", "input.query.limit"],
      ["offset", "input.query.offset"],
    ]);
    const invoke = ast.blocks[1].steps[0] as DataStep;
    expect(invoke.args.map((a) => a.key.name)).toEqual(["title", "description", "priority", "assignee"]);
    expect(sexpr((ast.blocks[1].steps[1] as RedirectStep).to)).toBe('"/tasks"');
  });

  test("the item route: named blocks, fetch, redirects built with +, steps sharing a line", () => {
    const ast = parseClean(itemRoute);
    expect(ast.blocks.map((b) => `${b.method.name} ${b.name?.name ?? "-"}`)).toEqual([
      "GET -",
      "POST start_task",
      "POST complete_task",
      "POST delete_task",
    ]);
    expect((ast.blocks[0].steps[0] as DataStep).op).toBe("fetch");
    expect(sexpr((ast.blocks[1].steps[1] as RedirectStep).to)).toBe('(+ "/tasks/" input.params.id)');
    expect(ast.blocks[2].steps.map((s) => s.kind)).toEqual(["DataStep", "Redirect"]);
    const redirect = ast.blocks[2].steps[1] as RedirectStep;
    expect(textAt(itemRoute, redirect.span)).toBe('redirect "/tasks/" + input.params.id');
    expect(redirect.span.start).toMatchObject({ line: 9 });
  });

  test("arguments may stand one per line without commas", () => {
    const ast = parseClean("GET {\n  query m.q {\n    a: 1\n    b: input.query.b\n  }\n}");
    expect((ast.blocks[0].steps[0] as DataStep).args.map((a) => a.key.name)).toEqual(["a", "b"]);
  });

  test("SQL-looking braces are plain object literals in a route file", () => {
    const ast = parseClean("GET { query m.q { one: 1 } }");
    expect((ast.blocks[0].steps[0] as DataStep).args.map((a) => a.key.name)).toEqual(["one"]);
  });

  test("a lower-case method is not a block, and the hint says why", () => {
    const { diagnostics } = parseRouteFile("r.svc", "get { fetch m.q { } }");
    expect(diagnostics[0]).toMatchObject({ code: "SVC1001", message: 'expected a method block such as GET { … }, found keyword "get"' });
    expect(diagnostics[0].hint).toMatch(/capitals/);
  });

  test("capitalized words are still names inside expressions", () => {
    const ast = parseClean("GET { fetch m.q { id: input.query.ID } }");
    expect(sexpr((ast.blocks[0].steps[0] as DataStep).args[0].value)).toBe("input.query.ID");
  });

  test("an empty route file needs a method block", () => {
    const { ast, diagnostics } = parseRouteFile("r.svc", "# nothing here\n");
    expect(ast.blocks).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["SVC1001", "expected a method block such as GET { … }, found end of file"],
    ]);
  });

  test("errors are reported per step and later blocks survive", () => {
    const text = "GET {\n  query m { a: 1 }\n  redirect \"/x\"\n}\nPOST {\n  jump m.a { }\n}\nPUT { invoke m.b { } }";
    const { ast, diagnostics } = parseRouteFile("r.svc", text);
    const lines = diagnostics.map((d) => [d.span?.start.line, d.message]);
    expect(lines[0]).toEqual([2, 'expected ".", found "{"']);
    expect(lines).toContainEqual([6, 'expected a step (limit, query, invoke, fetch, respond or redirect), or "}", found name "jump"']);
    expect(diagnostics.every((d) => d.code === "SVC1001")).toBe(true);
    expect(ast.blocks.map((b) => b.method.name)).toEqual(["GET", "POST", "PUT"]);
    expect(ast.blocks[2].steps).toMatchObject([{ kind: "DataStep", op: "invoke", target: { name: "b" } }]);
  });
});
