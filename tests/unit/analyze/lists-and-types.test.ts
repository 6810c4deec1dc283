// Lists and record types in the analyzer (docs/language.md §2.3 Lists, §2.5 Record types):
// shapes of arguments, typed members, loops and the transaction they need, list builtins,
// and lists bound in SQL.
import { describe, expect, test } from "../../support/jest.js";
import { TASK, analyzeText, codes } from "./analyze.js";

const TYPES = `
type NewUser { username: text, bio: text?, role: enum(a, b) = "a", address: Address? }
type Address { city: text }
`;

function clean(src: string) {
  const r = analyzeText(`${TASK}\n${TYPES}\n${src}\n`);
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r.model;
}

function errors(src: string) {
  return analyzeText(`${TASK}\n${TYPES}\n${src}\n`).diagnostics.filter((d) => d.severity === "error");
}

describe("shapes of arguments", () => {
  test("a list argument: json on the wire, its shape and bound in the model", () => {
    const m = clean("action a(tags: list<text> max 20, ids: list<id>?) { return len(tags) }");
    expect(m.actions[0].params).toEqual([
      { name: "tags", type: "json", enumValues: [], nullable: false, default: undefined, required: true, shape: { kind: "list", item: { kind: "scalar", type: "text", enumValues: [], nullable: false }, max: 20, nullable: false } },
      { name: "ids", type: "json", enumValues: [], nullable: true, default: undefined, required: false, shape: { kind: "list", item: { kind: "scalar", type: "id", enumValues: [], nullable: false }, max: 100, nullable: true } },
    ]);
  });

  test("record types: members with their shapes, defaults and whether they are required", () => {
    const m = clean("action a(user: NewUser) { return user.username }");
    expect(m.types?.map((t) => [t.name, t.members.map((x) => [x.name, x.required, x.default ?? null])])).toEqual([
      ["NewUser", [["username", true, null], ["bio", false, null], ["role", false, "a"], ["address", false, null]]],
      ["Address", [["city", true, null]]],
    ]);
    expect(m.actions[0].params[0].shape).toEqual({ kind: "record", module: "m", type: "NewUser", nullable: false });
  });

  test("members are typed: a member of a record, of a nested optional record, of a list item", () => {
    const m = clean("action a(user: NewUser, users: list<NewUser>) {\n  for u in users { if trim(u.username) == \"\" { fail \"blank\" } }\n  return { name: upper(user.username), city: user.address.city, role: user.role }\n}");
    expect(m.actions[0].returns).toEqual({
      kind: "object",
      fields: [
        { name: "name", type: { kind: "scalar", type: "text", enumValues: [], nullable: false } },
        { name: "city", type: { kind: "scalar", type: "text", enumValues: [], nullable: true } },
        { name: "role", type: { kind: "scalar", type: "enum", enumValues: ["a", "b"], nullable: false } },
      ],
    });
  });

  test("an unknown member is a build error naming the type, with a suggestion", () => {
    const [d] = errors("action a(user: NewUser) { return user.usernme }");
    expect([d.code, d.message, d.hint]).toEqual(["SVC2012", "`NewUser` has no field `usernme`", "did you mean `username`?"]);
  });

  test("a member used with the wrong type is a build error, not a run-time check", () => {
    expect(codes(errors("type N { n: int }\naction a(x: N) { return trim(x.n) }"))).toEqual(["SVC2013"]);
    expect(codes(errors("action a(user: NewUser) { return insert task { title: user.address } }"))).toEqual(["SVC2013"]);
  });

  test("a list or record in a resource field or where SQL binds a single value", () => {
    expect(codes(errors("resource r2 {\n  id: id\n  tags: list<text>\n}"))).toEqual(["SVC2051"]);
    expect(codes(errors("query q(u: NewUser) { SELECT * FROM task WHERE title = @u }"))).toEqual(["SVC2051"]);
    expect(codes(errors("query q(u: list<NewUser>) { SELECT * FROM task WHERE title IN @u }"))).toEqual(["SVC2051"]);
  });
});

describe("webhooks", () => {
  test("a handler's payload stays json: a record type would refuse the members providers add", () => {
    const r = analyzeText(`${TASK}\n${TYPES}\naction h(payload: NewUser) { return payload.username }\nwebhook w {\n  provider: "hmac"\n  secret: credentials.w\n  path: "/w"\n  handler: h\n}\n`);
    const d = r.diagnostics.filter((x) => x.severity === "error");
    expect(d.map((x) => [x.code, x.message])).toEqual([["SVC2043", "handler parameter `payload` must be of type json, not NewUser"]]);
  });
});

describe("for", () => {
  test("over a list argument, a literal, the rows of a query, a json member", () => {
    const m = clean('action a(tags: list<text>, doc: json) {\n  for t in tags { insert task { title: t } }\n  for n in [1, 2] { if n > 5 { fail "big" } }\n  for row in list_open() { update task(row.id) { points: row.points + 1 } }\n  for x in doc.items { insert task { title: x } }\n}\nquery list_open() { SELECT * FROM task WHERE status = \'open\' }');
    const body = m.actions[0].body;
    expect(body.map((s) => s.kind)).toEqual(["for", "for", "for", "for"]);
    const json = body[3];
    expect(json.kind === "for" && json.list).toMatchObject({ kind: "expect", as: "list", orNull: true, path: "doc.items" });
  });

  test("the loop variable may not shadow, and only lists are walked", () => {
    expect(codes(errors("action a(t: text, ts: list<text>) { for t in ts { return t } }"))).toEqual(["SVC2018"]);
    expect(codes(errors("action a(t: text) { for c in t { return c } }"))).toEqual(["SVC2053"]);
  });

  test("a loop over statements runs in a transaction; one without statements changes nothing", () => {
    const tx = (src: string) => clean(src).actions[0].transaction;
    expect(tx("action a(tags: list<text>) { for t in tags { insert task { title: t } } }")).toBe(true);
    expect(tx("action a(tags: list<text>) {\n  for t in tags { if t == \"\" { fail \"blank\" } }\n  return insert task { title: join(tags, \",\") }\n}")).toBe(false);
    // A fail inside the loop after the insert of an earlier turn must undo it.
    expect(tx("action a(tags: list<text>) { for t in tags { if t == \"x\" { fail \"no\" }\n insert task { title: t } } }")).toBe(true);
  });
});

describe("list builtins", () => {
  test("types of contains, unique and join", () => {
    const m = clean('action a(tags: list<text>, ns: list<int>) { return { c: contains(tags, "go"), u: unique(ns), j: join(tags, ", ") } }');
    expect(m.actions[0].returns).toMatchObject({
      fields: [
        { name: "c", type: { kind: "scalar", type: "bool" } },
        { name: "u", type: { kind: "array", item: { kind: "scalar", type: "int" } } },
        { name: "j", type: { kind: "scalar", type: "text" } },
      ],
    });
  });

  test("wrong arguments are build errors", () => {
    expect(codes(errors("action a(ns: list<int>) { return join(ns, \",\") }"))).toEqual(["SVC2013"]);
    // contains takes text too (contains(t, "x") looks into t), but not a number, nor a number in text.
    expect(codes(errors('action a(n: int) { return contains(n, "x") }'))).toEqual(["SVC2013"]);
    expect(codes(errors("action a(t: text) { return contains(t, 5) }"))).toEqual(["SVC2013"]);
    expect(codes(errors('action a(ns: list<int>) { return contains(ns, "x") }'))).toEqual(["SVC2013"]);
  });

  test("sort: a list of single values, of the same item type; rows and objects are not sortable", () => {
    const m = clean("action a(ns: list<int>, ts: list<text?>) { return { n: sort(ns), t: sort(ts) } }");
    expect(m.actions[0].returns).toMatchObject({
      fields: [
        { name: "n", type: { kind: "array", item: { kind: "scalar", type: "int" } } },
        { name: "t", type: { kind: "array", item: { kind: "scalar", type: "text", nullable: true } } },
      ],
    });
    expect(codes(errors("action a() { return sort(list_open()) }\nquery list_open() { SELECT * FROM task }"))).toEqual(["SVC2013"]);
    expect(codes(errors("action a(n: int) { return sort(n) }"))).toEqual(["SVC2013"]);
  });
});

describe("lists in SQL", () => {
  test("`x IN @tags` reads the list's items on every dialect, bound once as JSON", () => {
    const m = clean("query tagged(titles: list<text>, pts: list<int>) { SELECT * FROM task WHERE title IN @titles AND points IN @pts }");
    const q = m.queries.find((x) => x.name === "tagged")!;
    expect(q.sql.args).toEqual(["titles", "pts"]);
    expect(q.sql.dialects.sqlite?.text.trim()).toBe(
      "SELECT * FROM task WHERE title IN (SELECT value FROM json_each(?)) AND points IN (SELECT value FROM json_each(?))",
    );
    expect(q.sql.dialects.postgres?.text).toContain("points IN (SELECT CAST(value AS bigint) FROM jsonb_array_elements_text($2::jsonb) AS svc_list(value))");
    expect(q.sql.dialects.mysql?.text).toContain("points IN (SELECT value FROM JSON_TABLE(?, '$[*]' COLUMNS (value BIGINT PATH '$')) AS svc_list)");
  });

  test("item types that do not read back exactly from JSON are refused", () => {
    expect(codes(errors("query q(ts: list<timestamp>) { SELECT * FROM task WHERE title IN @ts }"))).toEqual(["SVC2051"]);
  });
});
