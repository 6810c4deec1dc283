// Rows read as arrays of values and built by the generated row literal (runtime/db/sqlite/rows.ts):
// the same rows the driver's objects were, and right where the build's column order is not
// the database's (a table migrated by earlier builds) or the schema changes under a
// prepared statement.

import { afterEach, beforeEach, describe, expect, test } from "../../support/jest.js";
import { rmSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import type { StatementSpec } from "../../../runtime/contract/index.js";

let db: SqliteDatabase;
let raw: BetterSqlite3.Database;
let file: string;

beforeEach(() => {
  file = `/tmp/svc-rows-${process.pid}-${Math.random().toString(36).slice(2)}.db`;
  raw = new BetterSqlite3(file);
  raw.exec("CREATE TABLE item (id TEXT PRIMARY KEY, title TEXT NOT NULL, note TEXT)");
  raw.exec("CREATE TABLE tag (item_id TEXT NOT NULL, label TEXT NOT NULL)");
  raw.exec("INSERT INTO item VALUES ('a', 'first', NULL), ('b', 'second', 'n')");
  raw.exec("INSERT INTO tag VALUES ('a', 'red'), ('b', 'blue')");
  db = openSqlite(file);
});

afterEach(() => {
  db.close();
  raw.close();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
});

/** A statement as generated code writes it: the build's columns and the literal for them. */
function built(name: string, text: string, columns: string[], slots: number[] = []): StatementSpec {
  return {
    name,
    sql: {
      sqlite: {
        text,
        slots,
        columns,
        row: (v) => Object.fromEntries(columns.map((c, i) => [c, v[i]])),
      },
    },
  };
}

describe("sqlite rows from values", () => {
  test("rows are the driver's objects: names, order, nulls; one row and none", async () => {
    const all = built("items", "SELECT * FROM item ORDER BY id", ["id", "title", "note"]);
    const one = built("item", "SELECT * FROM item WHERE id = ?", ["id", "title", "note"], [0]);
    db.prepare([all, one]);
    const rows = await db.all(all, []);
    expect(rows).toEqual(raw.prepare("SELECT * FROM item ORDER BY id").all());
    expect(JSON.stringify(rows)).toBe(
      '[{"id":"a","title":"first","note":null},{"id":"b","title":"second","note":"n"}]',
    );
    expect(await db.one(one, ["b"])).toEqual({ id: "b", title: "second", note: "n" });
    expect(await db.one(one, ["zz"])).toBeNull();
  });

  test("a build that saw the columns in another order never mislabels a value", async () => {
    // The build's table declares note before title; this database has them the other way.
    const spec = built("items", "SELECT * FROM item ORDER BY id", ["id", "note", "title"]);
    db.prepare([spec]);
    expect(await db.all(spec, [])).toEqual([
      { id: "a", title: "first", note: null },
      { id: "b", title: "second", note: "n" },
    ]);
  });

  test("a column added under a prepared statement shifts no value to another name", async () => {
    const spec = built("tagged", "SELECT item.*, tag.label FROM item JOIN tag ON tag.item_id = item.id ORDER BY item.id", [
      "id",
      "title",
      "note",
      "label",
    ]);
    db.prepare([spec]);
    expect((await db.all(spec, []))[0]).toEqual({ id: "a", title: "first", note: null, label: "red" });
    // Another server (a newer build) adds a column; SQLite prepares the statement again.
    raw.exec("ALTER TABLE item ADD COLUMN rank INTEGER NOT NULL DEFAULT 7");
    expect(await db.all(spec, [])).toEqual([
      { id: "a", title: "first", note: null, rank: 7, label: "red" },
      { id: "b", title: "second", note: "n", rank: 7, label: "blue" },
    ]);
  });

  test("statements without a row literal build rows from the live names, as the driver did", async () => {
    const spec: StatementSpec = {
      name: "odd",
      sql: { sqlite: { text: `SELECT id, title AS id, note AS "__proto__" FROM item WHERE id = 'b'`, slots: [] } },
    };
    db.prepare([spec]);
    const row = (await db.one(spec, []))!;
    // A name given twice keeps the later value; a column named __proto__ is a plain property.
    expect(row.id).toBe("second");
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, "__proto__")?.value).toBe("n");
    expect(JSON.stringify(row)).toBe('{"id":"second","__proto__":"n"}');
  });

  test("a statement that returns no rows still runs and counts its changes", async () => {
    const insert: StatementSpec = {
      name: "insert",
      sql: { sqlite: { text: "INSERT INTO item (id, title) VALUES (?, ?) RETURNING id", slots: [0, 1], columns: ["id"], row: (v) => ({ id: v[0] }) } },
    };
    const update: StatementSpec = { name: "update", sql: { sqlite: { text: "UPDATE item SET note = 'x'", slots: [] } } };
    db.prepare([insert, update]);
    expect(await db.one(insert, ["c", "third"])).toEqual({ id: "c" });
    expect(await db.run(update, [])).toBe(3);
  });
});
