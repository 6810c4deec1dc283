// A key's kind is never changed at start (docs/language.md §2.1, Keys): on SQLite, PostgreSQL
// and MariaDB, a table made for one key and declared with another is refused, naming the
// table and what differs; a table declared as it was made passes, ULID tables included.

import Database from "better-sqlite3";
import mysql from "mysql2";
import postgres from "postgres";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { allTableDdl } from "../../compiler/analyze/sql/ddl/index.js";
import type { FieldModel } from "../../compiler/analyze/model/model.js";
import type { ResourceShape } from "../../compiler/analyze/sql/ddl/shared.js";
import { declaredTables } from "../../runtime/db/net/migrate.js";
import { planMysql } from "../../runtime/db/mysql/migrate.js";
import { planPostgres } from "../../runtime/db/postgres/migrate.js";
import { migrateSqlite } from "../../runtime/db/sqlite/migrate.js";
import type { TableSpec } from "../../runtime/contract/index.js";
import { backendAvailable, createNamespace, type Namespace } from "./support/databases.js";

const field = (name: string, type: FieldModel["type"], generated?: FieldModel["generated"]): FieldModel => ({
  name, type, enumValues: [], nullable: false, default: null, doc: null, ...(generated ? { generated } : {}),
});

/** The table `item` with the key of one kind. */
const KINDS: Record<string, Pick<ResourceShape, "fields" | "primaryKey">> = {
  ulid: { fields: [field("id", "id", "ulid"), field("code", "int"), field("name", "text")], primaryKey: ["id"] },
  identity: { fields: [field("id", "int", "identity"), field("code", "int"), field("name", "text")], primaryKey: ["id"] },
  naturalInt: { fields: [field("id", "int"), field("code", "int"), field("name", "text")], primaryKey: ["id"] },
  composite: { fields: [field("id", "int"), field("code", "int"), field("name", "text")], primaryKey: ["id", "code"] },
  otherKey: { fields: [field("id", "int"), field("code", "int"), field("name", "text")], primaryKey: ["code"] },
};

const table = (kind: string): TableSpec => {
  const shape: ResourceShape = { module: "m", name: "item", doc: null, indexes: [], ...KINDS[kind] };
  return { name: "item", ddl: allTableDdl(shape) };
};

/** [made, declared, what the refusal says, or null when it passes] */
const CASES: [string, string, RegExp | null][] = [
  ["ulid", "ulid", null],
  ["identity", "identity", null],
  ["naturalInt", "naturalInt", null],
  ["composite", "composite", null],
  ["ulid", "identity", /table item: column id is .* in the database but declared/],
  ["identity", "naturalInt", /table item: key id is numbered by the database but not declared `id\(int\)`/],
  ["naturalInt", "identity", /table item: key id is declared `id\(int\)` \(numbered by the database\) but the database does not number it/],
  ["naturalInt", "composite", /table item: its primary key is \(id\) in the database but declared \(id, code\)/],
  ["composite", "otherKey", /table item: its primary key is \(id, code\) in the database but declared \(code\)/],
];

describe("sqlite: a changed key is refused at start", () => {
  test.each(CASES)("made %s, declared %s", async (made, declared, refusal) => {
    const db = new Database(":memory:");
    try {
      await migrateSqlite(db, [table(made)]);
      const again = migrateSqlite(db, [table(declared)]);
      if (refusal === null) await expect(again).resolves.toBeUndefined();
      else await expect(again).rejects.toThrow(refusal);
    } finally {
      db.close();
    }
  });
});

const namespaces: Namespace[] = [];
afterAll(async () => {
  for (const ns of namespaces) await ns.drop();
});

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`${backend}: a changed key is refused at start`, () => {
    test.each(CASES)("made %s, declared %s", async (made, declared, refusal) => {
      const ns = await createNamespace(backend, `keys_${made}`);
      namespaces.push(ns);
      await ns.admin(table(made).ddl[backend]!.createTable);
      const problems = await plan(backend, ns, table(declared));
      if (refusal === null) expect(problems).toEqual([]);
      else expect(problems.join("\n")).toMatch(refusal);
    });
  });
}

async function plan(backend: "postgres" | "mysql", ns: Namespace, t: TableSpec): Promise<string[]> {
  const declared = declaredTables([t], backend);
  if (backend === "postgres") {
    const sql = postgres(ns.url.replace(/\?.*$/, ""), { max: 1, onnotice: () => undefined, connection: { search_path: ns.name } });
    try {
      return (await planPostgres(sql, declared)).problems;
    } finally {
      await sql.end({ timeout: 2 });
    }
  }
  const conn = mysql.createConnection({ uri: ns.url });
  conn.on("error", () => undefined);
  try {
    return (await planMysql(conn, declared)).problems;
  } finally {
    conn.destroy();
  }
}
