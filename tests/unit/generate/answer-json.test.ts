// Query answers written as JSON by functions generated for their row types
// (compiler/generate/sections/answers.ts, runtime/core/answer/json-text.ts): the text must be exactly
// JSON.stringify's, for every kind of value and every column name a query can have.

import { describe, expect, test } from "../../support/jest.js";
import { answerJson } from "../../../compiler/generate/sections/answers.js";
import { Names } from "../../../compiler/generate/names.js";
import { jsonRowOrNull, jsonRows, jsonTextBytes, jsonValue } from "../../../runtime/core/answer/json-text.js";
import { analyzeText } from "../analyze/analyze.js";

const STRINGS = [
  "",
  "plain text, long enough to be worth a scan: ".repeat(20),
  'a "quoted" word',
  "back\\slash",
  "new\nline, tab\t, return\r, nul\u0000, bell\u0007, escape\u001b, unit separator\u001f",
  "DEL \u007f and C1 \u0085 stay as they are",
  "é, ß, 中文",
  "line separator \u2028 and paragraph separator \u2029",
  "emoji 😀 (a surrogate pair)",
  "lone high \ud800 surrogate",
  "lone low \udfff surrogate",
  "</script>",
];

const VALUES: unknown[] = [
  ...STRINGS,
  null,
  undefined,
  0,
  -0,
  42,
  -7.25,
  1e21,
  0.1 + 0.2,
  Number.MAX_SAFE_INTEGER,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  { a: [1, "two", null], 'b "c"': { d: true } },
  ["x", 1, null],
  [],
  {},
];

describe("runtime: JSON text of values and rows", () => {
  test("a value is written as JSON.stringify writes it (undefined as null)", () => {
    for (const v of VALUES) expect(jsonValue(v)).toBe(JSON.stringify(v) ?? "null");
  });

  test("an answer's size in UTF-8: its length when every value was ASCII, else counted", () => {
    for (const v of VALUES) {
      const text = `{"v":${jsonValue(v)}}`;
      expect([String(v), jsonTextBytes(text)]).toEqual([String(v), Buffer.byteLength(text)]);
    }
    // One value beyond ASCII among plain ones counts the whole text; the next answer starts afresh.
    const mixed = jsonRows([{ s: "plain" }, { s: "é 😀" }, { s: "plain" }], (r: { s: string }) => `{"s":${jsonValue(r.s)}}`);
    expect(Buffer.byteLength(mixed)).toBeGreaterThan(mixed.length);
    expect(jsonTextBytes(mixed)).toBe(Buffer.byteLength(mixed));
    const plain = jsonValue("plain");
    expect(jsonTextBytes(plain)).toBe(plain.length);
    // A json column's value may hold anything: counted.
    const nested = jsonValue({ a: "中" });
    expect(jsonTextBytes(nested)).toBe(Buffer.byteLength(nested));
  });

  test("rows and a row or null", () => {
    const row = (r: { s: string }) => `{"s":${jsonValue(r.s)}}`;
    const rows = STRINGS.map((s) => ({ s }));
    expect(jsonRows(rows, row)).toBe(JSON.stringify(rows));
    expect(jsonRows([], row)).toBe("[]");
    expect(jsonRowOrNull(rows[4], row)).toBe(JSON.stringify(rows[4]));
    expect(jsonRowOrNull(null, row)).toBe("null");
  });
});

const MODULE = `module m

resource task {
  id: id
  title: text
  done: bool = false
  score: float?
  meta: json?
}

query tasks() {
  SELECT * FROM task ORDER BY id
}

query task_by_id(id: id) one {
  SELECT * FROM task WHERE id = @id
}

query odd() {
  SELECT title AS "a ""q"" b", title AS "back\`tick\${x}\\\\z", done, score, meta FROM task
}

query proto() {
  SELECT id AS "__proto__", title FROM task
}

query accented() {
  SELECT title AS "clé", done FROM task
}

action add(title: text) {
  return insert task { title: title }
}

action odd_ones() {
  return odd()
}

action count_tasks() {
  return len(tasks())
}
`;

/** The generated row functions, made runnable: their bodies are plain JavaScript. */
function generated(): { json: Map<string, (result: unknown) => string>; functions: string[] } {
  const { model, diagnostics } = analyzeText(MODULE);
  // Warnings only (a `json` field has no type openapi.json can state).
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const names = new Names(model);
  const out = answerJson(model, model.queries, model.actions, names);
  const rt = { jsonValue, jsonRows, jsonRowOrNull };
  const functions = out.functions.map((f) => {
    if (!("statements" in f) || !("name" in f)) throw new Error("a function structure");
    return `function ${f.name}(r) {\n${f.statements as string}\n}`;
  });
  const json = new Map<string, (result: unknown) => string>();
  for (const [target, initializer] of out.byTarget) {
    json.set(
      `${target.module}.${target.name}`,
      new Function("rt", `${functions.join("\n")}\nreturn ${initializer};`)(rt) as (result: unknown) => string,
    );
  }
  return { json, functions };
}

describe("generated: a query's answer as JSON", () => {
  const { json, functions } = generated();

  test("a resource's rows share one function, written in the order of its fields", () => {
    expect(functions).toHaveLength(2);
    const rows = STRINGS.map((title, i) => ({
      id: `01J${i}`,
      title,
      done: i % 2 === 0,
      score: i === 3 ? null : i / 3,
      meta: i === 2 ? null : { tags: [title], n: i },
    }));
    expect(json.get("m.tasks")!(rows)).toBe(JSON.stringify(rows));
    expect(json.get("m.task_by_id")!(rows[4])).toBe(JSON.stringify(rows[4]));
    expect(json.get("m.task_by_id")!(null)).toBe("null");
  });

  test("column names with quotes, backslashes, backticks and ${ are written as JSON.stringify writes them", () => {
    const row = { 'a "q" b': "x\ny", "back`tick${x}\\\\z": "plain", done: false, score: 1.5, meta: [1, { a: "b" }] };
    expect(Object.keys(row)).toHaveLength(5);
    expect(json.get("m.odd")!([row, row])).toBe(JSON.stringify([row, row]));
  });

  test("an action answering a resource's row, or a query's rows, uses their functions; other answers keep JSON.stringify", () => {
    const row = { id: "01J", title: 'a "b"', done: true, score: null, meta: { x: ["\n"] } };
    expect(json.get("m.add")!(row)).toBe(JSON.stringify(row));
    const odd = { 'a "q" b': "x", "back`tick${x}\\\\z": "y", done: true, score: 2, meta: null };
    expect(json.get("m.odd_ones")!([odd])).toBe(JSON.stringify([odd]));
    expect(json.has("m.count_tasks")).toBe(false);
  });

  test("a column named __proto__ keeps JSON.stringify", () => {
    expect(json.has("m.proto")).toBe(false);
  });

  test("a column named beyond ASCII keeps JSON.stringify (the writer's sizes take keys for ASCII)", () => {
    expect(json.has("m.accented")).toBe(false);
    expect(json.has("m.tasks")).toBe(true);
  });
});
