import { describe, expect, test } from "../../support/jest.js";
import type {
  ActionDecl, IfStmt, QueryDecl, ResourceDecl, ReturnStmt, RouteDecl, WebhookDecl,
} from "../../../compiler/parse/ast.js";
import { parseClean, sexpr, textAt } from "./helpers.js";
import { taskTrackerSource } from "./task-tracker-source.js";

describe("the task tracker module of docs/language.md §2", () => {
  const ast = parseClean(taskTrackerSource);

  test("every declaration, in order", () => {
    expect(ast.module?.name).toBe("task_tracker");
    expect(ast.decls.map((d) => `${d.kind} ${"name" in d ? d.name.name : `${d.method.name} ${d.path.value}`}`)).toEqual([
      "Resource task",
      "Query list_tasks",
      "Query get_task",
      "Action create_task",
      "Action start_task",
      "Action delete_task",
      "Action purge_done_tasks",
      "Route POST /v1/tasks/:id/start",
      "Route GET /v1/tasks/open",
      "Route GET /v1/tasks/:id",
      "Webhook github_push",
    ]);
  });

  test("the resource", () => {
    const task = ast.decls[0] as ResourceDecl;
    expect(task.fields.map((f) => `${f.name.name}: ${f.type.name.name}${f.type.nullable ? "?" : ""}`)).toEqual([
      "id: id",
      "title: text",
      "description: text?",
      "priority: enum",
      "assignee: text?",
      "status: enum",
      "created_at: timestamp",
      "completed_at: timestamp?",
    ]);
    expect(task.fields[5].type.values.map((v) => v.name)).toEqual(["open", "in_progress", "blocked", "done", "cancelled"]);
    expect(task.fields[6].default && sexpr(task.fields[6].default)).toBe("now()");
    expect(task.indexes.map((i) => i.columns.map((c) => [c.name.name, c.desc]))).toEqual([
      [["status", false]],
      [["created_at", true], ["id", true]],
    ]);
  });

  test("the queries", () => {
    const [list, get] = ast.decls.slice(1, 3) as QueryDecl[];
    expect(list.params.map((p) => [p.name.name, p.default && sexpr(p.default)])).toEqual([
      ["status", null],
      ["limit", "50"],
      ["offset", "0"],
    ]);
    expect(list.one).toBe(false);
    expect(list.sql.params.map((p) => p.name)).toEqual(["status", "status", "limit", "offset"]);
    expect(list.sql.text.trim().split("\n")[0]).toBe("SELECT * FROM task");
    expect(textAt(taskTrackerSource, list.sql.span)).toBe(list.sql.text);
    expect(get.one).toBe(true);
    expect(get.sql.text.trim()).toBe("SELECT * FROM task WHERE id = @id");
  });

  test("the actions", () => {
    const [create, start, del, purge] = ast.decls.slice(3, 7) as ActionDecl[];
    expect(create.params.map((p) => p.name.name)).toEqual(["title", "description", "priority", "assignee"]);
    const guard = create.body.stmts[0] as IfStmt;
    expect(sexpr(guard.cond)).toBe('(== trim(title) "")');
    expect(sexpr((create.body.stmts[1] as ReturnStmt).value!)).toBe(
      "insert task {title: title, description: description, priority: priority, assignee: assignee}",
    );

    expect(start.body.stmts.map((s) => s.kind)).toEqual(["Let", "If", "If", "If", "Return"]);
    expect(start.body.stmts[0]).toMatchObject({ kind: "Let", name: { name: "task" }, value: { kind: "Call", callee: { name: "get_task" } } });
    expect((start.body.stmts[1] as IfStmt).then.stmts[0]).toMatchObject({
      kind: "Fail",
      status: { value: 404 },
      message: { value: "task not found" },
    });
    expect(sexpr((start.body.stmts[4] as ReturnStmt).value!)).toBe('update task(id) {status: "in_progress", assignee: assignee}');

    expect(del.body.stmts[0]).toMatchObject({ kind: "Let", value: { kind: "RecordOp", op: "delete" } });
    expect(purge.requires).toMatchObject({ kind: "role", role: { value: "admin" } });
    expect(purge.body.stmts).toMatchObject([{ kind: "SqlStmt", sql: { text: " DELETE FROM task WHERE status = 'done' ", params: [] } }]);
  });

  test("the routes and the webhook", () => {
    const routes = ast.decls.slice(7, 10) as RouteDecl[];
    expect(routes.map((r) => [r.method.name, r.path.value, r.target.name])).toEqual([
      ["POST", "/v1/tasks/:id/start", "start_task"],
      ["GET", "/v1/tasks/open", "list_open_tasks"],
      ["GET", "/v1/tasks/:id", "get_task"],
    ]);
    const hook = ast.decls[10] as WebhookDecl;
    expect(hook.fields.map((f) => [f.key.name, sexpr(f.value)])).toEqual([
      ["provider", '"github"'],
      ["secret", "credentials.github_webhook"],
      ["path", '"/webhooks/github"'],
      ["handler", "record_push"],
    ]);
  });

  test("the AST is plain data: it survives a JSON round trip unchanged", () => {
    expect(JSON.parse(JSON.stringify(ast))).toEqual(ast);
  });
});
