// A resource's declared changes in the model (docs/language.md §2.1, Changing a resource):
// what each backend's SQL makes of an expression, the derived conversions, the schema hash,
// and the checks fixtures/error-evolve does not show one by one.

import { describe, expect, test } from "../../support/jest.js";
import type { ColumnChangeModel, Model } from "../../../compiler/analyze/model/model.js";
import { rowExpression } from "../../../compiler/analyze/sql/row-expression.js";
import { schemaSummary } from "../../../compiler/cli/schema-summary.js";
import { analyzeText, codes } from "./analyze.js";

function clean(text: string): Model {
  const { model, diagnostics } = analyzeText(text);
  expect(diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  return model;
}

function change(model: Model, column: string): ColumnChangeModel {
  const c = model.resources[0].changes?.columns.find((x) => x.column === column);
  if (!c) throw new Error(`no change of ${column}`);
  return c;
}

const resource = (body: string) => `module m\nresource task {\n  id: id\n${body}\n}\n`;

describe("the SQL of a change, per backend", () => {
  test("columns become {name} spelled as declared, bare, quoted or qualified; strings and functions stay", () => {
    const e = rowExpression(`upper(Title) || 'title' || "task"."note" || task.title`, "task", ["title", "note"]);
    expect(e.sqlite).toBe(`(upper({title}) || 'title' || {note} || {title})`);
    expect(e.postgres).toBe(e.sqlite);
  });

  test("CAST names each backend's type of the same affinity; LENGTH counts characters on MySQL", () => {
    const e = rowExpression("CAST(n AS INTEGER) + length(t) + CAST(f AS REAL)", "r", ["n", "t", "f"]);
    expect(e).toEqual({
      sqlite: "(CAST({n} AS INTEGER) + length({t}) + CAST({f} AS REAL))",
      postgres: "(CAST({n} AS bigint) + length({t}) + CAST({f} AS double precision))",
      mysql: "(CAST({n} AS SIGNED) + CHAR_LENGTH({t}) + CAST({f} AS DOUBLE))",
    });
  });

  test("a column named like a keyword SQLite reads as a name is still a column; a function of the same name is not", () => {
    const e = rowExpression("rank + abs(rank)", "r", ["rank", "abs"]);
    expect(e.sqlite).toBe("({rank} + abs({rank}))");
  });

  test("one value: parenthesised unless it already binds tightest; a comment cannot hide what the runtime writes after it", () => {
    expect(rowExpression("coalesce(a, 0)", "r", ["a"]).sqlite).toBe("coalesce({a}, 0)");
    expect(rowExpression("CASE WHEN a > 0 THEN 1 ELSE 0 END", "r", ["a"]).sqlite).toBe("CASE WHEN {a} > 0 THEN 1 ELSE 0 END");
    expect(rowExpression("a -- the old value\n", "r", ["a"]).sqlite).toBe("{a}");
    expect(rowExpression("a + /* one */ 1", "r", ["a"]).postgres).toBe("({a} +           1)");
    const model = clean(resource("  n: int backfill (1 -- then nothing else\n)"));
    expect(change(model, "n").backfill?.sqlite).toBe("1");
  });

  test("a backfill does not read the field it fills; an error past the expression points at its parentheses", () => {
    expect(analyzeText(resource("  n: int backfill (n)")).diagnostics.map((d) => d.message)).toEqual(["the `backfill` SQL of field `n`: no column `n` (in the expression)"]);
    const [empty] = analyzeText(resource("  n: int changed from text using () lossy")).diagnostics;
    expect([empty.code, empty.span?.start.column, empty.span?.end.column]).toEqual(["SVC8113", 34, 36]);
  });

  test("two values, an alias or a second statement are refused by SQLite", () => {
    for (const sql of ["1, 2", "1 AS x", "1; DELETE FROM task"]) {
      const { diagnostics } = analyzeText(resource(`  n: int backfill (${sql})`));
      expect([sql, codes(diagnostics)]).toEqual([sql, ["SVC8113"]]);
    }
  });

  test("`using` sees the old column under its old name and type; `back` the new one", () => {
    const model = clean(resource("  price: int renamed from amount changed from text using (CAST(amount AS INTEGER)) back (CAST(price AS TEXT)) lossy"));
    const c = change(model, "price");
    expect(c.renamedFrom).toBe("amount");
    expect(c.retype?.up.sqlite).toBe("CAST({amount} AS INTEGER)");
    expect(c.retype?.down.postgres).toBe("CAST({price} AS text)");
    expect(c.retype?.from.mysql).toEqual({ declared: "TEXT", reported: "text" });
    expect(c.keys).toEqual(["task.price renamed from amount", "task.price changed from text"]);
  });

  test("`using` over the new name of a renamed column is refused: the old table has only the old name", () => {
    const { diagnostics } = analyzeText(resource("  price: int renamed from amount changed from text using (CAST(price AS INTEGER)) lossy"));
    expect(codes(diagnostics)).toEqual(["SVC8113"]);
    expect(diagnostics[0].message).toContain("price");
  });
});

describe("derived conversions", () => {
  test("a widening change needs no using; both ways are derived per backend", () => {
    const c = change(clean(resource("  cost: float changed from int")), "cost");
    expect(c.retype).toMatchObject({
      up: { sqlite: "CAST({cost} AS REAL)", postgres: "CAST({cost} AS double precision)", mysql: "CAST({cost} AS DOUBLE)" },
      down: { postgres: "CAST({cost} AS bigint)" },
      lossy: false,
    });
  });

  test("int to text comes back only when the text is a number, else NULL rather than an error", () => {
    const c = change(clean(resource("  n: text changed from int")), "n");
    expect(c.retype?.down.postgres).toBe("CASE WHEN {n} ~ '^-?[0-9]+$' THEN CAST({n} AS bigint) END");
    expect(c.retype?.down.mysql).toBe("CASE WHEN {n} REGEXP '^-?[0-9]+$' THEN CAST({n} AS SIGNED) END");
  });

  test("an enum gaining values is widening; losing one needs using and lossy", () => {
    expect(change(clean(resource("  s: enum(a, b, c) changed from enum(a, b)")), "s").retype?.up.sqlite).toBe("{s}");
    expect(codes(analyzeText(resource("  s: enum(a) changed from enum(a, b)")).diagnostics)).toEqual(["SVC8102"]);
    const narrowed = change(clean(resource("  s: enum(a) changed from enum(a, b) using (CASE WHEN s = 'b' THEN 'a' ELSE s END) lossy")), "s");
    expect(narrowed.retype?.down.sqlite).toBe("{s}");
  });

  test("a conversion with no way back gives the old build NULL", () => {
    const c = change(clean(resource("  doc: text changed from json using (json_extract(doc, '$.text')) lossy")), "doc");
    expect(c.retype?.down).toEqual({ sqlite: "NULL", postgres: "NULL", mysql: "NULL" });
  });
});

describe("every pair of types", () => {
  const TYPES = ["text", "int", "float", "bool", "timestamp", "json", "enum(a, b)", "enum(a, b, c)", "file"];
  test("is widening, or needs using and lossy; either way it analyzes without a crash", () => {
    for (const from of TYPES) {
      for (const to of TYPES) {
        if (from === to) continue;
        const bare = analyzeText(resource(`  n: ${to} changed from ${from}`));
        const declared = analyzeText(resource(`  n: ${to} changed from ${from} using (n) lossy`));
        expect([from, to, codes(bare.diagnostics).filter((c) => c !== "SVC8102")]).toEqual([from, to, []]);
        expect(declared.model.resources).toHaveLength(1);
      }
    }
  });
});

describe("backfills", () => {
  test("a literal is written per backend (booleans, timestamps)", () => {
    const model = clean(resource("  done: bool backfill false\n  due: timestamp backfill \"2024-01-02T03:04:05Z\""));
    expect(change(model, "done").backfill).toEqual({ sqlite: "0", postgres: "FALSE", mysql: "FALSE" });
    expect(change(model, "due").backfill).toEqual({
      sqlite: "'2024-01-02T03:04:05.000Z'",
      postgres: "'2024-01-02T03:04:05.000Z'",
      mysql: "'2024-01-02 03:04:05.000'",
    });
  });

  test("an SQL backfill reads the row's other columns and must yield the field's type", () => {
    const model = clean(resource("  title: text\n  slug: text backfill (lower(title))"));
    expect(change(model, "slug").backfill?.sqlite).toBe("lower({title})");
    const { diagnostics } = analyzeText(resource("  title: text\n  n: int backfill (lower(title))"));
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([["SVC8114", "the `backfill` SQL of field `n` yields text, not int"]]);
  });
});

describe("the schema", () => {
  test("absent without declared changes, so projects that declare none are as before", () => {
    expect(clean(resource("  title: text")).schema).toBeUndefined();
  });

  test("drop resource alone makes it present; the hash is stable and follows the declarations", () => {
    const a = clean(resource("  title: text") + "drop resource old\n").schema!;
    expect(a.dropTables.map((t) => t.name)).toEqual(["old"]);
    expect(a.build).toMatch(/^[0-9a-f]{12}$/);
    expect(clean(resource("  title: text") + "drop resource old\n").schema!.build).toBe(a.build);
    expect(clean(resource("  title: text") + "drop resource older\n").schema!.build).not.toBe(a.build);
    const renamed = clean(resource("  title: text renamed from name")).schema!.build;
    expect(clean(resource("  title: text renamed from label")).schema!.build).not.toBe(renamed);
  });

  test("a field declared twice with a change reports the duplicate only", () => {
    const { diagnostics } = analyzeText(resource("  title: text\n  title: text renamed from name"));
    expect(codes(diagnostics)).toEqual(["SVC2008"]);
    expect(analyzeText(resource("  title: text\n  title: text renamed from name")).model.resources[0].changes).toBeUndefined();
  });
});

describe("a type change the backend cannot serve side by side", () => {
  const fields = resource(`  estimate: int? changed from text using (CAST(estimate AS INTEGER)) lossy\n  hours: int? renamed from spent changed from text using (CAST(spent AS INTEGER)) lossy`);
  test("warns (SVC8122) on TiDB and SQLite for a retype in place, not one with a rename", () => {
    for (const backend of ["tidb", "sqlite"] as const) {
      const { diagnostics } = analyzeText(fields, { backend });
      expect(diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
        ["SVC8122", "warning", expect.stringMatching(/^field `estimate` changes type in place: on (TiDB|SQLite) servers/)],
      ]);
    }
  });

  test("is silent on PostgreSQL and MySQL/MariaDB (views show the new build the new type), and where svc.toml names no backend", () => {
    expect(analyzeText(fields, { backend: "postgres" }).diagnostics).toEqual([]);
    expect(analyzeText(fields, { backend: "mysql" }).diagnostics).toEqual([]);
    expect(analyzeText(fields).diagnostics).toEqual([]);
  });
});

describe("svc build's summary", () => {
  test("one line per declared change, saying when it runs and what it loses", () => {
    const model = clean(
      resource("  headline: text renamed from title\n  price: int renamed from amount changed from text using (CAST(amount AS INTEGER)) lossy\n  drop notes") +
        "drop resource audit\n",
    );
    expect(schemaSummary(model)).toEqual([
      "schema: task.headline renamed from title (expand at start or `svc migrate apply`, then `svc migrate complete`)",
      "schema: task.price renamed from amount, changed from text (expand at start or `svc migrate apply`, then `svc migrate complete`; lossy: values that do not convert are lost)",
      "schema: task drop notes (at `svc migrate complete`; lossy: the column's data is lost)",
      "schema: drop resource audit (at `svc migrate complete`; lossy: the table's data is lost)",
    ]);
    expect(schemaSummary(clean(resource("  title: text")))).toEqual([]);
  });
});
