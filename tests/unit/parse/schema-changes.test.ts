// The syntax of schema changes (docs/language.md §2.1, Changing a resource): a field's
// `renamed from`, `changed from … using (…) back (…) lossy`, `backfill`, a resource's
// `drop x`, and the module-level `drop resource x`.

import { describe, expect, test } from "../../support/jest.js";
import type { DropResourceDecl, FieldDecl, ResourceDecl } from "../../../compiler/parse/ast.js";
import { parseModule } from "../../../compiler/parse/index.js";
import { parseClean, sexpr, textAt } from "./helpers.js";

const SOURCE = `module m
resource task {
  id: id
  headline: text renamed from title
  estimate: int changed from text using (CAST(estimate AS INTEGER)) lossy
  cost: float changed from int
  owner: text backfill "nobody"
  rank: int backfill (length(title) + length(')'))
  price: int renamed from amount changed from text using (CAST(amount AS INTEGER)) back (CAST(price AS TEXT)) lossy
  status: enum(a, b, c) changed from enum(a, b)
  drop legacy_notes
  unique (headline)
}
drop resource audit_old
`;

function fields(text: string): Map<string, FieldDecl> {
  const r = parseClean(text).decls[0] as ResourceDecl;
  return new Map(r.fields.map((f) => [f.name.name, f]));
}

describe("a field's change clauses", () => {
  const byName = fields(SOURCE);

  test("renamed from keeps the old name with its span", () => {
    const c = byName.get("headline")!.change!;
    expect(c.renamedFrom?.name).toBe("title");
    expect(textAt(SOURCE, c.renamedFrom!.span)).toBe("title");
    expect(textAt(SOURCE, c.span)).toBe("renamed from title");
    expect(textAt(SOURCE, byName.get("headline")!.span)).toBe("headline: text renamed from title");
  });

  test("changed from takes a type, using and back take SQL kept verbatim, lossy is recorded", () => {
    const c = byName.get("price")!.change!;
    expect(c.renamedFrom?.name).toBe("amount");
    expect(c.changedFrom?.name.name).toBe("text");
    expect(c.using?.text).toBe("CAST(amount AS INTEGER)");
    expect(textAt(SOURCE, c.using!.span)).toBe("CAST(amount AS INTEGER)");
    expect(c.back?.text).toBe("CAST(price AS TEXT)");
    expect(c.lossy).toBeDefined();
    expect(byName.get("status")!.change!.changedFrom?.values.map((v) => v.name)).toEqual(["a", "b"]);
    expect(byName.get("cost")!.change).toMatchObject({ changedFrom: { name: { name: "int" } } });
    expect(byName.get("cost")!.change!.using).toBeUndefined();
  });

  test("backfill takes a literal or parenthesised SQL, in which a ) inside a string does not close it", () => {
    const owner = byName.get("owner")!.change!.backfill!;
    expect("value" in owner && sexpr(owner.value)).toBe('"nobody"');
    const rank = byName.get("rank")!.change!.backfill!;
    expect("sql" in rank && rank.sql.text).toBe("length(title) + length(')')");
  });

  test("a field without clauses has no change", () => {
    expect(byName.get("id")!.change).toBeUndefined();
  });

  test("drop members and drop resource", () => {
    const ast = parseClean(SOURCE);
    const r = ast.decls[0] as ResourceDecl;
    expect(r.drops?.map((d) => d.name.name)).toEqual(["legacy_notes"]);
    expect(r.indexes).toHaveLength(1);
    const d = ast.decls[1] as DropResourceDecl;
    expect(d.kind).toBe("DropResource");
    expect(textAt(SOURCE, d.span)).toBe("drop resource audit_old");
  });

  test("the new words stay names elsewhere: fields called from, drop, back and backfill", () => {
    const f = fields("module m\nresource r {\n  id: id\n  from: text\n  drop: int\n  back: bool\n  backfill: text\n  using: text?\n}\n");
    expect([...f.keys()]).toEqual(["id", "from", "drop", "back", "backfill", "using"]);
  });

  test("after a default holding braces, using (…) is still SQL", () => {
    const f = fields("module m\nresource r {\n  id: id\n  meta: json = { a: { b: 1 } }\n  n: int changed from text using (CAST(n AS INTEGER)) lossy\n}\n");
    expect(f.get("n")!.change!.using?.text).toBe("CAST(n AS INTEGER)");
  });

  test("a function called back(…) outside a resource is a call, not SQL", () => {
    const ast = parseClean("module m\nfn back(x: int) { return x }\naction a() { return back(1) }\n");
    expect(ast.decls.map((d) => d.kind)).toEqual(["Fn", "Action"]);
  });
});

describe("syntax errors", () => {
  test("an unclosed ( after using is SVC8100 and the fields after it still parse", () => {
    const { ast, diagnostics } = parseModule("t.svc", "module m\nresource r {\n  id: id\n  n: int changed from text using (CAST(n AS INTEGER) lossy\n  after: text\n}\n");
    expect(diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toContainEqual(["SVC8100", 4, 34]);
    expect((ast.decls[0] as ResourceDecl).fields.map((f) => f.name.name)).toContain("after");
  });

  test("clauses out of order are a syntax error naming what was expected", () => {
    const { diagnostics } = parseModule("t.svc", "module m\nresource r {\n  id: id\n  n: int lossy changed from text\n}\n");
    expect(diagnostics[0]).toMatchObject({ code: "SVC1001" });
    expect(diagnostics[0].message).toContain('"changed"');
  });

  test("drop resource without a name", () => {
    const { diagnostics } = parseModule("t.svc", "module m\ndrop resource\n");
    expect(diagnostics.map((d) => d.code)).toEqual(["SVC1001"]);
  });
});
