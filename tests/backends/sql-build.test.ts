// SQL made at build time for the network dialects: `@name` placeholders per dialect with
// the declared types (issue 5, part 3), record operations without RETURNING on mysql, and
// the way `svc check --db` maps a place in the SQL sent back into the .svc file.

import { describe, expect, test } from "../support/jest.js";
import { recordStatement } from "../../compiler/analyze/sql/record-sql.js";
import { offsetFromMessage, sourceOffset } from "../../compiler/analyze/sql/live.js";
import { bindParams } from "../../compiler/analyze/sql/params.js";
import { spanInText, sqlText } from "../../compiler/analyze/sql/span.js";
import type { ResourceModel, ScalarType } from "../../compiler/analyze/model/model.js";
import { generateSqlTs } from "../../compiler/generate/index.js";
import { analyzeText } from "../unit/analyze/analyze.js";
import { field, sqlBody } from "../unit/sql/fixtures.js";

const types = (entries: [string, ScalarType][]) => new Map(entries);

describe("@name per dialect, with the declared types", () => {
  const body = sqlBody("SELECT * FROM task WHERE (@since IS NULL OR created_at >= @since) AND points > @min LIMIT @n");
  const bound = bindParams(
    body,
    types([
      ["since", "timestamp"],
      ["min", "float"],
      ["n", "int"],
    ]),
  );

  test("postgres numbers each name once and casts it to its type, so PostgreSQL never guesses one", () => {
    expect(bound.dialects.postgres).toEqual({
      text: "SELECT * FROM task WHERE ($1::timestamptz IS NULL OR created_at >= $1::timestamptz) AND points > $2::double precision LIMIT $3::bigint",
      slots: [0, 1, 2],
    });
  });

  test("mysql has a ? per use (a name used twice fills two slots) and reads timestamps from svc's ISO text", () => {
    const iso = "STR_TO_DATE(?, '%Y-%m-%dT%H:%i:%s.%fZ')";
    expect(bound.dialects.mysql).toEqual({
      text: `SELECT * FROM task WHERE (${iso} IS NULL OR created_at >= ${iso}) AND points > ? LIMIT ?`,
      slots: [0, 0, 1, 2],
    });
  });

  test("sqlite is untouched by the types", () => {
    expect(bound.dialects.sqlite.text).toBe("SELECT * FROM task WHERE (? IS NULL OR created_at >= ?) AND points > ? LIMIT ?");
  });
});

describe("record operations on mysql", () => {
  const resource: ResourceModel = {
    module: "m",
    name: "task",
    doc: null,
    at: { file: "task.svc", span: { start: { offset: 9, line: 1, column: 10 }, end: { offset: 13, line: 1, column: 14 } } },
    primaryKey: ["id"],
    fields: [field("id", "id"), field("title", "text"), field("done_at", "timestamp", { nullable: true })],
    indexes: [],
    ddl: {},
  };
  const cols = "`id`, `title`, `done_at`";
  const byKey = `SELECT ${cols} FROM \`task\` WHERE \`id\` = ?`;

  test("insert: no RETURNING; the row is read by its key after", () => {
    expect(recordStatement(resource, "insert").sql.dialects.mysql).toEqual({
      text: `INSERT INTO \`task\` (${cols}) VALUES (?, ?, STR_TO_DATE(?, '%Y-%m-%dT%H:%i:%s.%fZ'))`,
      slots: [0, 1, 2],
      returning: { text: byKey, slots: [0], when: "after" },
    });
  });

  test("update: the key is the last argument, and the read after uses it", () => {
    expect(recordStatement(resource, "update", ["done_at", "title"]).sql.dialects.mysql).toEqual({
      text: "UPDATE `task` SET `done_at` = STR_TO_DATE(?, '%Y-%m-%dT%H:%i:%s.%fZ'), `title` = ? WHERE `id` = ?",
      slots: [0, 1, 2],
      returning: { text: byKey, slots: [2], when: "after" },
    });
  });

  test("delete: the row is read first, locked, so the row read is the row deleted", () => {
    expect(recordStatement(resource, "delete").sql.dialects.mysql).toEqual({
      text: "DELETE FROM `task` WHERE `id` = ?",
      slots: [0],
      returning: { text: `${byKey} FOR UPDATE`, slots: [0], when: "before" },
    });
  });

  test("get needs no read of its own; sqlite and postgres keep RETURNING", () => {
    const get = recordStatement(resource, "get").sql.dialects;
    expect(get.mysql).toEqual({ text: byKey, slots: [0] });
    expect(recordStatement(resource, "delete").sql.dialects.postgres?.text).toMatch(
      / RETURNING "id", "title", "done_at"$/,
    );
  });

  test("the generated server carries the read in its StatementSpec", async () => {
    const { model } = analyzeText(`module m

resource task {
  id: id
  title: text
}

action rename(id: id, title: text) {
  return update task(id) { title: title }
}
`);
    const ts = await generateSqlTs(model);
    expect(ts).toContain('text: "UPDATE `task` SET `title` = ? WHERE `id` = ?"');
    expect(ts).toMatch(
      /returning: \{\s*text: "SELECT `id`, `title` FROM `task` WHERE `id` = \?",\s*slots: \[1\],\s*when: "after",?\s*\}/,
    );
  });
});

describe("places in the SQL sent, mapped back into the .svc file", () => {
  const text = "SELECT nope FROM task\nWHERE created_at > @since AND id = @id";
  const body = sqlBody(text);
  const sql = sqlText(body);
  const bound = bindParams(
    body,
    types([
      ["since", "timestamp"],
      ["id", "id"],
    ]),
  );

  test("postgres: before, inside and after the placeholders", () => {
    const sent = bound.dialects.postgres.text;
    expect(sourceOffset(sql, sent, sent.indexOf("nope"))).toBe(text.indexOf("nope"));
    expect(sourceOffset(sql, sent, sent.indexOf("::timestamptz") + 3)).toBe(text.indexOf("@since"));
    expect(sourceOffset(sql, sent, sent.indexOf("AND id"))).toBe(text.indexOf("AND id"));
    expect(sourceOffset(sql, sent, sent.length - 1)).toBe(text.indexOf("@id"));
  });

  test("mysql: STR_TO_DATE(…) stands for one @name", () => {
    const sent = bound.dialects.mysql.text;
    expect(sourceOffset(sql, sent, sent.indexOf("%Y"))).toBe(text.indexOf("@since"));
    expect(sourceOffset(sql, sent, sent.indexOf("AND id"))).toBe(text.indexOf("AND id"));
  });

  test("SQL written on its own lines: the model keeps it trimmed, places still map to line and column", () => {
    const padded = sqlBody(`\n    ${text}\n  `);
    const trimmed = sqlText(padded);
    expect(trimmed.text).toBe(text);
    // The body starts right after `{` (line 1); its text starts on the next line, column 5.
    expect(trimmed.start).toMatchObject({ line: padded.span.start.line + 1, column: 5 });
    const sent = bindParams(padded, types([["since", "timestamp"], ["id", "id"]])).dialects.postgres.text;
    expect(sourceOffset(trimmed, sent, sent.indexOf("nope"))).toBe(text.indexOf("nope"));
    expect(sourceOffset(trimmed, sent, sent.indexOf("::timestamptz"))).toBe(text.indexOf("@since"));
    expect(spanInText(trimmed, text.indexOf("nope"), text.indexOf("nope") + 4).start).toMatchObject({
      line: padded.span.start.line + 1,
      column: 5 + text.indexOf("nope"),
    });
  });

  test("names svc writes per backend (json_agg for json_group_array, a stripped annotation) map back too", () => {
    const written = 'SELECT json_group_array(title) AS "titles: json", nope FROM task WHERE id = @id';
    const b = sqlBody(written);
    const at = sqlText(b);
    const sentPg = bindParams(b, types([["id", "id"]])).dialects.postgres.text;
    expect(sentPg).toBe(`SELECT coalesce(json_agg(title), '[]'::json) AS "titles", nope FROM task WHERE id = $1::text`);
    expect(sourceOffset(at, sentPg, sentPg.indexOf("nope"))).toBe(written.indexOf("nope"));
    expect(sourceOffset(at, sentPg, sentPg.indexOf("title)"))).toBe(written.indexOf("title)"));
    expect(sourceOffset(at, sentPg, sentPg.indexOf("json_agg") + 2)).toBe(written.indexOf("json_group_array"));
    expect(sourceOffset(at, sentPg, sentPg.indexOf("FROM"))).toBe(written.indexOf("FROM"));
    const sentMy = bindParams(b, types([["id", "id"]])).dialects.mysql.text;
    expect(sourceOffset(at, sentMy, sentMy.indexOf("nope"))).toBe(written.indexOf("nope"));
    expect(sourceOffset(at, sentMy, sentMy.indexOf("WHERE"))).toBe(written.indexOf("WHERE"));
  });

  test("values svc writes as JSON (a boolean inside json_object) map back too", () => {
    const written = "SELECT json_object('ok', id = @id, 'n', nope) AS doc FROM task";
    const b = sqlBody(written);
    const at = sqlText(b);
    const values = [{ start: written.indexOf("id = @id"), end: written.indexOf(", 'n'"), type: "bool" as const }];
    const sent = bindParams(b, types([["id", "id"]]), undefined, values).dialects.mysql.text;
    expect(sent).toContain("JSON_EXTRACT(CASE (id = ?) WHEN 1");
    expect(sourceOffset(at, sent, sent.indexOf("nope"), values)).toBe(written.indexOf("nope"));
    expect(sourceOffset(at, sent, sent.indexOf("AS doc"), values)).toBe(written.indexOf("AS doc"));
    expect(sourceOffset(at, sent, sent.indexOf("id = ?"), values)).toBe(written.indexOf("id = @id"));
  });

  test("a query's json values are kept where its trimmed text has them, so written SQL on its own lines maps back", () => {
    const r = analyzeText(`module m

resource task {
  id: id
  title: text
}

private query flags(id: id) {
    SELECT json_object('mine', id = @id, 'title', title) AS doc FROM task
}
`);
    expect(r.diagnostics).toEqual([]);
    const q = r.model.queries[0];
    const source = q.sql.source;
    expect(q.sql.jsonValues?.map((v) => source.slice(v.start, v.end))).toEqual(["id = @id"]);
    const sql = { text: source, ...q.at.text };
    const sent = q.sql.dialects.mysql!.text;
    expect(sourceOffset(sql, sent, sent.indexOf("'title'"), q.sql.jsonValues)).toBe(source.indexOf("'title'"));
    expect(sourceOffset(sql, sent, sent.indexOf("AS doc"), q.sql.jsonValues)).toBe(source.indexOf("AS doc"));
  });

  test("MySQL's messages point with the text they quote", () => {
    const sent = bound.dialects.mysql.text;
    expect(offsetFromMessage(sent, "Unknown column 'nope' in 'field list'")).toBe(sent.indexOf("nope"));
    expect(
      offsetFromMessage(
        sent,
        "You have an error in your SQL syntax; check the manual … near 'FROM task\nWHERE' at line 1",
      ),
    ).toBe(sent.indexOf("FROM task"));
    expect(offsetFromMessage(sent, "Table 'db.task' doesn't exist")).toBe(sent.indexOf("task"));
    expect(offsetFromMessage(sent, "Lost connection")).toBeNull();
  });
});
