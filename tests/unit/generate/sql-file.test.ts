// server.ts and its companion sql.ts (docs/language.md, "Generated code"): the SQL data goes
// to sql.ts, which loads nothing at run time; server.ts imports what it names.

import { describe, expect, test } from "../../support/jest.js";
import { generate } from "../../../compiler/generate/index.js";
import { TASK, analyzeText } from "../analyze/analyze.js";

describe("sql.ts beside server.ts", () => {
  test("holds every table and statement spec; server.ts holds none and imports them", async () => {
    const { model, diagnostics } = analyzeText(`${TASK}
action add(title: text) { return insert task { title: title } }`);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const files = await generate(model, { pretty: false, apiOutputs: false });
    const file = (p: string) => String(files.find((f) => f.path === p)?.contents);
    const server = file("server.ts");
    const sql = file("sql.ts");
    expect(server).not.toMatch(/: rt\.(TableSpec|StatementSpec|RowLiteral)\b/);
    expect(sql).toMatch(/export const taskTable: rt\.TableSpec/);
    expect(sql).toMatch(/export const getTaskSql: rt\.StatementSpec/);
    expect(sql).toMatch(/export const taskInsertSql: rt\.StatementSpec/);
    // The row literal is sql.ts's own: the statements spread it, server.ts never names it.
    expect(sql).toMatch(/\nconst taskSqliteRow: rt\.RowLiteral/);
    expect(server).toMatch(/import \{[^}]*\btaskTable\b[^}]*\bgetTaskSql\b[^}]*\} from "\.\/sql\.js";/);
    expect(server).not.toContain("taskSqliteRow");
    // svc's own tables are the runtime's.
    expect(sql).not.toContain("svc_idempotency_keys");
    expect(server).toContain("idempotency: true");
    // Types only: the JavaScript of sql.ts imports nothing.
    expect(file("sql.js")).not.toMatch(/\bimport\b|require\(/);
  });

  test("a server that runs no SQL has no sql.ts and no import of it", async () => {
    const { model } = analyzeText("module m\n\nfn twice(x) { x * 2 }\n");
    const files = await generate(model, { pretty: false, apiOutputs: false });
    expect(files.map((f) => f.path)).not.toContain("sql.ts");
    expect(String(files.find((f) => f.path === "server.ts")?.contents)).not.toContain("./sql.js");
  });
});
