import { describe, expect, test } from "../../support/jest.js";
import type { ActionDecl, QueryDecl, ResourceDecl, RouteDecl, WebhookDecl } from "../../../compiler/parse/ast.js";
import { parseModule } from "../../../compiler/parse/index.js";
import { parseClean, sexpr, textAt } from "./helpers.js";

describe("module header", () => {
  test("names the module", () => {
    expect(parseClean("module task_tracker\n").module).toMatchObject({ name: "task_tracker" });
  });

  test("a missing header is SVC1005 and the declarations are still parsed", () => {
    const { ast, diagnostics } = parseModule("t.svc", "\n\nroute GET \"/\" => a");
    expect(ast.module).toBeNull();
    expect(ast.decls.map((d) => d.kind)).toEqual(["Route"]);
    expect(diagnostics.map((d) => [d.code, d.span?.start.line])).toEqual([["SVC1005", 3]]);
  });

  test("an empty file lacks its header", () => {
    const { ast, diagnostics } = parseModule("t.svc", "");
    expect(ast).toMatchObject({ kind: "ModuleFile", module: null, decls: [] });
    expect(diagnostics.map((d) => d.code)).toEqual(["SVC1005"]);
  });
});

describe("resources", () => {
  test("fields, nullability, defaults, enums and indexes", () => {
    const ast = parseClean(`module m
resource task {
  id: id
  note: text?
  priority: enum(low, medium, high) = "medium"
  created_at: timestamp = now()
  index (priority)
  index (created_at desc, id asc)
  unique (note, id)
}`);
    const r = ast.decls[0] as ResourceDecl;
    expect(r.kind).toBe("Resource");
    expect(r.name.name).toBe("task");
    expect(r.fields.map((f) => [f.name.name, f.type.name.name, f.type.nullable, f.default && sexpr(f.default)])).toEqual([
      ["id", "id", false, null],
      ["note", "text", true, null],
      ["priority", "enum", false, '"medium"'],
      ["created_at", "timestamp", false, "now()"],
    ]);
    expect(r.fields[2].type.values.map((v) => v.name)).toEqual(["low", "medium", "high"]);
    expect(r.indexes.map((i) => [i.unique, i.columns.map((c) => `${c.name.name}${c.desc ? " desc" : ""}`)])).toEqual([
      [false, ["priority"]],
      [false, ["created_at desc", "id"]],
      [true, ["note", "id"]],
    ]);
  });

  test("field names may be keywords, including index and unique", () => {
    const r = parseClean(
      "module m\nresource r { status: text one: int index: int unique: bool delete: text query: json index (index) }",
    ).decls[0] as ResourceDecl;
    expect(r.fields.map((f) => f.name.name)).toEqual(["status", "one", "index", "unique", "delete", "query"]);
    expect(r.indexes[0].columns[0].name.name).toBe("index");
  });

  test("type names are identifiers: unknown ones are left to the analyzer", () => {
    const r = parseClean("module m\nresource r { a: money }").decls[0] as ResourceDecl;
    expect(r.fields[0].type).toMatchObject({ name: { name: "money" }, values: [], nullable: false });
  });

  test("enum without values, and values on another type, are reported", () => {
    const { diagnostics } = parseModule("t.svc", "module m\nresource r { a: enum  b: enum()  c: text(x) }");
    expect(diagnostics.map((d) => d.code)).toEqual(["SVC1008", "SVC1008", "SVC1009"]);
  });

  test("doc comments attach to the resource and to its fields", () => {
    const r = parseClean(`module m
/// A unit of work.
///   Indented second line.
resource task {
  /// Primary key.
  id: id
  title: text /// not a doc: it follows code
  done: bool
}`).decls[0] as ResourceDecl;
    expect(r.doc).toBe("A unit of work.\n  Indented second line.");
    expect(r.fields.map((f) => f.doc)).toEqual(["Primary key.", null, null]);
  });

  test("a doc comment separated by a blank line, or by a plain comment, documents nothing", () => {
    const ast = parseClean("module m\n/// lost\n\nroute GET \"/\" => a\n/// also lost\n# note\nroute GET \"/b\" => b");
    expect(ast.decls.map((d) => d.doc)).toEqual([null, null]);
  });
});

describe("queries", () => {
  test("parameters with types, defaults and one", () => {
    const text = `module m
query get_task(id: id, limit: int = 50, status: text?,) one {
  SELECT * FROM task WHERE id = @id AND status = @status LIMIT @limit
}`;
    const q = parseClean(text).decls[0] as QueryDecl;
    expect(q.name.name).toBe("get_task");
    expect(q.one).toBe(true);
    expect(q.params.map((p) => [p.kind, p.name.name, p.type.name.name, p.type.nullable, p.default && sexpr(p.default)])).toEqual([
      ["Param", "id", "id", false, null],
      ["Param", "limit", "int", false, "50"],
      ["Param", "status", "text", true, null],
    ]);
    expect(q.sql.text).toBe("\n  SELECT * FROM task WHERE id = @id AND status = @status LIMIT @limit\n");
    expect(textAt(text, q.sql.span)).toBe(q.sql.text);
    expect(q.sql.params.map((p) => [p.name, textAt(text, p.span)])).toEqual([
      ["id", "@id"],
      ["status", "@status"],
      ["limit", "@limit"],
    ]);
  });

  test("without one, and without parameters", () => {
    const q = parseClean("module m\nquery all() { SELECT 1 }").decls[0] as QueryDecl;
    expect(q).toMatchObject({ one: false, params: [], sql: { text: " SELECT 1 ", params: [] } });
  });
});

describe("actions", () => {
  test("parameters, requires auth, requires role", () => {
    const ast = parseClean(`module m
action a(x: int) requires auth { return x }
action b() requires role "admin" { }
action c() { }`);
    const [a, b, c] = ast.decls as ActionDecl[];
    expect(a.requires).toMatchObject({ kind: "auth" });
    expect(b.requires).toMatchObject({ kind: "role", role: { kind: "String", value: "admin" } });
    expect(c.requires).toBeNull();
    expect(a.params.map((p) => p.name.name)).toEqual(["x"]);
    expect(b.body.stmts).toEqual([]);
  });
});

describe("routes and webhooks", () => {
  test("route METHOD \"path\" => target keeps the method as written", () => {
    const ast = parseClean('module m\nroute POST "/v1/tasks/:id/start" => start_task\nroute patch "/x" => y');
    const [a, b] = ast.decls as RouteDecl[];
    expect([a.method.name, a.path.value, a.target.name]).toEqual(["POST", "/v1/tasks/:id/start", "start_task"]);
    expect(b.method.name).toBe("patch");
  });

  test("webhook entries, with or without commas", () => {
    const ast = parseClean(`module m
webhook github_push {
  provider: "github"
  secret: credentials.github_webhook, path: "/webhooks/github"
  handler: record_push
}`);
    const w = ast.decls[0] as WebhookDecl;
    expect(w.name.name).toBe("github_push");
    expect(w.fields.map((f) => [f.key.name, sexpr(f.value)])).toEqual([
      ["provider", '"github"'],
      ["secret", "credentials.github_webhook"],
      ["path", '"/webhooks/github"'],
      ["handler", "record_push"],
    ]);
  });
});
