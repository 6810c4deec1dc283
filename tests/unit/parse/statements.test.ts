import { describe, expect, test } from "../../support/jest.js";
import type { IfStmt } from "../../../compiler/parse/ast.js";
import { sexpr, statementsOf } from "./helpers.js";

describe("statements", () => {
  test("let", () => {
    const [stmt] = statementsOf("let task = get_task(id: id)");
    expect(stmt).toMatchObject({ kind: "Let", name: { name: "task" }, value: { kind: "Call" } });
  });

  test("if, else, else if", () => {
    const [stmt] = statementsOf("if a { return 1 } else if b { return 2 } else { return 3 }");
    const first = stmt as IfStmt;
    expect(sexpr(first.cond)).toBe("a");
    const second = first.else as IfStmt;
    expect(second.kind).toBe("If");
    expect(sexpr(second.cond)).toBe("b");
    expect(second.else).toMatchObject({ kind: "Block", stmts: [{ kind: "Return", value: { value: 3 } }] });
    const [plain] = statementsOf("if a { x }");
    expect((plain as IfStmt).else).toBeNull();
  });

  test("fail with and without a status", () => {
    expect(statementsOf('fail "bad"')).toMatchObject([{ kind: "Fail", status: null, message: { value: "bad" } }]);
    expect(statementsOf('fail 404 "missing"')).toMatchObject([
      { kind: "Fail", status: { kind: "Int", value: 404 }, message: { kind: "String", value: "missing" } },
    ]);
    expect(statementsOf("fail 409 msg")).toMatchObject([{ status: { value: 409 }, message: { kind: "Name" } }]);
    // A number followed by an operator is the message, not a status.
    expect(statementsOf("fail 4 + 1")).toMatchObject([{ status: null, message: { kind: "Binary" } }]);
  });

  test("return with and without a value", () => {
    expect(statementsOf("return task")).toMatchObject([{ kind: "Return", value: { kind: "Name", name: "task" } }]);
    expect(statementsOf("return")).toMatchObject([{ kind: "Return", value: null }]);
    expect(statementsOf("if a { return } x")).toMatchObject([
      { kind: "If", then: { stmts: [{ kind: "Return", value: null }] } },
      { kind: "ExprStmt" },
    ]);
  });

  test("sql statements keep their body verbatim with its parameters", () => {
    const [stmt] = statementsOf("sql { UPDATE t SET n = n + 1 WHERE id = @id }");
    expect(stmt).toMatchObject({
      kind: "SqlStmt",
      sql: { kind: "Sql", text: " UPDATE t SET n = n + 1 WHERE id = @id ", params: [{ name: "id" }] },
    });
  });

  test("a bare expression is a statement", () => {
    expect(statementsOf("delete task(id)")).toMatchObject([{ kind: "ExprStmt", expr: { kind: "RecordOp", op: "delete" } }]);
  });

  test("newlines mean nothing: statements may share a line", () => {
    const stmts = statementsOf('if c { fail "x" }  return y');
    expect(stmts.map((s) => s.kind)).toEqual(["If", "Return"]);
    const spread = statementsOf("let\nx\n=\n1\nreturn\nx");
    expect(spread).toMatchObject([{ kind: "Let", value: { value: 1 } }, { kind: "Return", value: { name: "x" } }]);
  });
});
