import { describe, expect, test } from "../../support/jest.js";
import Database from "better-sqlite3";
import { allTableDdl } from "../../../compiler/analyze/sql/ddl/index.js";
import { tableDdl as mysqlDdl } from "../../../compiler/analyze/sql/ddl/mysql.js";
import { tableDdl as postgresDdl } from "../../../compiler/analyze/sql/ddl/postgres.js";
import { normalizeTimestamp } from "../../../compiler/analyze/sql/ddl/shared.js";
import { tableDdl as sqliteDdl } from "../../../compiler/analyze/sql/ddl/sqlite.js";
import type { ResourceShape } from "../../../compiler/analyze/sql/ddl/index.js";
import { field, taskResource } from "./fixtures.js";

const task = taskResource();

/** A resource with one field of every other type, and defaults that need escaping. */
const settings: ResourceShape = {
  module: "m",
  name: "setting",
  doc: null,
  primaryKey: ["key"],
  fields: [
    field("key", "id"),
    field("owner", "id", { nullable: true }),
    field("note", "text", { default: { kind: "value", value: "it's a \\ slash" } }),
    field("count", "int", { default: { kind: "value", value: -3 } }),
    field("ratio", "float", { default: { kind: "value", value: 0.25 } }),
    field("active", "bool", { default: { kind: "value", value: true } }),
    field("meta", "json", { default: { kind: "value", value: "{}" } }),
    field("starts", "timestamp", { default: { kind: "value", value: "2024-03-01T10:20:30Z" } }),
  ],
  indexes: [{ name: "setting_note_key", unique: true, columns: [{ name: "note", desc: false }] }],
};

describe("task DDL (docs/language.md §2.1)", () => {
  test("sqlite", () => {
    const ddl = sqliteDdl(task);
    expect(ddl.createTable).toBe(
      [
        `CREATE TABLE IF NOT EXISTS "task" (`,
        `  "id" TEXT NOT NULL PRIMARY KEY,`,
        `  "title" TEXT NOT NULL,`,
        `  "description" TEXT,`,
        `  "priority" TEXT NOT NULL DEFAULT 'medium' CHECK ("priority" IN ('low', 'medium', 'high', 'critical')),`,
        `  "assignee" TEXT,`,
        `  "status" TEXT NOT NULL DEFAULT 'open' CHECK ("status" IN ('open', 'in_progress', 'blocked', 'done', 'cancelled')),`,
        `  "created_at" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),`,
        `  "completed_at" TEXT`,
        `)`,
      ].join("\n"),
    );
    expect(ddl.createIndexes).toEqual([
      `CREATE INDEX IF NOT EXISTS "task_status_idx" ON "task" ("status")`,
      `CREATE INDEX IF NOT EXISTS "task_created_at_id_idx" ON "task" ("created_at" DESC, "id" DESC)`,
    ]);
    expect(ddl.columns.map((c) => [c.name, c.sqlType, c.nullable, c.hasDefault])).toEqual([
      ["id", "TEXT", false, false],
      ["title", "TEXT", false, false],
      ["description", "TEXT", true, false],
      ["priority", "TEXT", false, true],
      ["assignee", "TEXT", true, false],
      ["status", "TEXT", false, true],
      ["created_at", "TEXT", false, true],
      ["completed_at", "TEXT", true, false],
    ]);
    expect(ddl.columns[3].definition).toBe(
      `"priority" TEXT NOT NULL DEFAULT 'medium' CHECK ("priority" IN ('low', 'medium', 'high', 'critical'))`,
    );
  });

  test("postgres", () => {
    const ddl = postgresDdl(task);
    expect(ddl.createTable).toBe(
      [
        `CREATE TABLE IF NOT EXISTS "task" (`,
        `  "id" text NOT NULL PRIMARY KEY,`,
        `  "title" text NOT NULL,`,
        `  "description" text,`,
        `  "priority" text NOT NULL DEFAULT 'medium' CHECK ("priority" IN ('low', 'medium', 'high', 'critical')),`,
        `  "assignee" text,`,
        `  "status" text NOT NULL DEFAULT 'open' CHECK ("status" IN ('open', 'in_progress', 'blocked', 'done', 'cancelled')),`,
        `  "created_at" timestamptz NOT NULL DEFAULT now(),`,
        `  "completed_at" timestamptz`,
        `)`,
      ].join("\n"),
    );
    expect(ddl.createIndexes).toEqual([
      `CREATE INDEX IF NOT EXISTS "task_status_idx" ON "task" ("status")`,
      `CREATE INDEX IF NOT EXISTS "task_created_at_id_idx" ON "task" ("created_at" DESC, "id" DESC)`,
    ]);
    expect(ddl.columns.map((c) => c.sqlType)).toEqual([
      "text",
      "text",
      "text",
      "text",
      "text",
      "text",
      "timestamp with time zone",
      "timestamp with time zone",
    ]);
  });

  test("mysql", () => {
    const ddl = mysqlDdl(task);
    expect(ddl.createTable).toBe(
      [
        "CREATE TABLE IF NOT EXISTS `task` (",
        "  `id` VARCHAR(64) NOT NULL PRIMARY KEY,",
        "  `title` TEXT NOT NULL,",
        "  `description` TEXT,",
        "  `priority` VARCHAR(255) NOT NULL DEFAULT 'medium' CHECK (`priority` IN ('low', 'medium', 'high', 'critical')),",
        "  `assignee` TEXT,",
        "  `status` VARCHAR(255) NOT NULL DEFAULT 'open' CHECK (`status` IN ('open', 'in_progress', 'blocked', 'done', 'cancelled')),",
        "  `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),",
        "  `completed_at` DATETIME(3)",
        ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
      ].join("\n"),
    );
    expect(ddl.createIndexes).toEqual([
      "CREATE INDEX IF NOT EXISTS `task_status_idx` ON `task` (`status`)",
      "CREATE INDEX IF NOT EXISTS `task_created_at_id_idx` ON `task` (`created_at` DESC, `id` DESC)",
    ]);
    expect(ddl.columns.map((c) => c.sqlType)).toEqual([
      "varchar",
      "text",
      "text",
      "varchar",
      "text",
      "varchar",
      "datetime",
      "datetime",
    ]);
  });

  test("allTableDdl gives the three dialects, each equal to its own module's output", () => {
    expect(allTableDdl(task)).toEqual({ sqlite: sqliteDdl(task), postgres: postgresDdl(task), mysql: mysqlDdl(task) });
  });
});

describe("every type and literal default", () => {
  test("sqlite column definitions", () => {
    expect(sqliteDdl(settings).columns.map((c) => c.definition)).toEqual([
      `"key" TEXT NOT NULL PRIMARY KEY`,
      `"owner" TEXT`,
      `"note" TEXT NOT NULL DEFAULT 'it''s a \\ slash'`,
      `"count" INTEGER NOT NULL DEFAULT -3`,
      `"ratio" REAL NOT NULL DEFAULT 0.25`,
      `"active" INTEGER NOT NULL DEFAULT 1 CHECK ("active" IN (0, 1))`,
      `"meta" TEXT NOT NULL DEFAULT '"{}"' CHECK (json_valid("meta"))`,
      `"starts" TEXT NOT NULL DEFAULT '2024-03-01T10:20:30.000Z'`,
    ]);
  });

  test("postgres column definitions", () => {
    expect(postgresDdl(settings).columns.map((c) => [c.definition, c.sqlType])).toEqual([
      [`"key" text NOT NULL PRIMARY KEY`, "text"],
      [`"owner" text`, "text"],
      [`"note" text NOT NULL DEFAULT 'it''s a \\ slash'`, "text"],
      [`"count" bigint NOT NULL DEFAULT -3`, "bigint"],
      [`"ratio" double precision NOT NULL DEFAULT 0.25`, "double precision"],
      [`"active" boolean NOT NULL DEFAULT TRUE`, "boolean"],
      [`"meta" jsonb NOT NULL DEFAULT '"{}"'`, "jsonb"],
      [`"starts" timestamptz NOT NULL DEFAULT '2024-03-01T10:20:30.000Z'`, "timestamp with time zone"],
    ]);
  });

  test("mysql column definitions escape backslashes and wrap TEXT/JSON defaults", () => {
    const ddl = mysqlDdl(settings);
    expect(ddl.columns.map((c) => [c.definition, c.sqlType])).toEqual([
      ["`key` VARCHAR(64) NOT NULL PRIMARY KEY", "varchar"],
      ["`owner` VARCHAR(64)", "varchar"],
      ["`note` TEXT NOT NULL DEFAULT ('it''s a \\\\ slash')", "text"],
      ["`count` BIGINT NOT NULL DEFAULT -3", "bigint"],
      ["`ratio` DOUBLE NOT NULL DEFAULT 0.25", "double"],
      ["`active` BOOLEAN NOT NULL DEFAULT TRUE", "tinyint"],
      ["`meta` JSON NOT NULL DEFAULT ('\"{}\"')", "json"],
      ["`starts` DATETIME(3) NOT NULL DEFAULT '2024-03-01 10:20:30.000'", "datetime"],
    ]);
    expect(ddl.createIndexes).toEqual(["CREATE UNIQUE INDEX IF NOT EXISTS `setting_note_key` ON `setting` (`note`(255))"]);
  });

  test("a null default on a nullable field is DEFAULT NULL", () => {
    const r: ResourceShape = {
      ...settings,
      fields: [field("key", "id"), field("tag", "text", { nullable: true, default: { kind: "value", value: null } })],
    };
    for (const ddl of Object.values(allTableDdl(r))) {
      expect(ddl.columns[1].definition).toMatch(/^\S+ \S+ DEFAULT NULL$/);
      expect(ddl.columns[1].hasDefault).toBe(true);
    }
  });

  test("timestamps normalize to ISO-8601 UTC; a time without a zone is UTC", () => {
    expect(normalizeTimestamp("2024-03-01")).toBe("2024-03-01T00:00:00.000Z");
    expect(normalizeTimestamp("2024-03-01 10:20")).toBe("2024-03-01T10:20:00.000Z");
    expect(normalizeTimestamp("2024-03-01T10:20:30+02:00")).toBe("2024-03-01T08:20:30.000Z");
    expect(normalizeTimestamp("yesterday")).toBeNull();
  });
});

describe("the sqlite DDL runs in SQLite", () => {
  function open(resources: ResourceShape[]) {
    const db = new Database(":memory:");
    for (const r of resources) {
      const ddl = sqliteDdl(r);
      db.exec(ddl.createTable);
      for (const ix of ddl.createIndexes) db.exec(ix);
    }
    return db;
  }

  test("tables and indexes are created, and PRAGMA table_info reports each sqlType", () => {
    const db = open([task, settings]);
    try {
      for (const r of [task, settings]) {
        const info = db.prepare(`PRAGMA table_info("${r.name}")`).all() as {
          name: string;
          type: string;
          notnull: number;
          pk: number;
        }[];
        expect(info.map((c) => [c.name, c.type, c.notnull === 0])).toEqual(
          sqliteDdl(r).columns.map((c) => [c.name, c.sqlType, c.nullable]),
        );
      }
      const indexes = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`).all();
      expect(indexes).toEqual([{ name: "setting_note_key" }, { name: "task_created_at_id_idx" }, { name: "task_status_idx" }]);
    } finally {
      db.close();
    }
  });

  test("running the DDL twice changes nothing (IF NOT EXISTS)", () => {
    const db = open([task]);
    try {
      const ddl = sqliteDdl(task);
      expect(() => [ddl.createTable, ...ddl.createIndexes].forEach((s) => db.exec(s))).not.toThrow();
    } finally {
      db.close();
    }
  });

  test("defaults fill a row, and the CHECKs refuse values outside the declared types", () => {
    const db = open([task, settings]);
    try {
      db.prepare(`INSERT INTO task (id, title) VALUES ('t1', 'Write tests')`).run();
      const row = db.prepare(`SELECT * FROM task`).get() as Record<string, unknown>;
      expect(row).toMatchObject({ priority: "medium", status: "open", description: null, completed_at: null });
      expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(() => db.prepare(`INSERT INTO task (id, title, status) VALUES ('t2', 'x', 'later')`).run()).toThrow(
        /CHECK constraint failed/,
      );
      expect(() => db.prepare(`INSERT INTO task (id) VALUES ('t3')`).run()).toThrow(/NOT NULL constraint failed: task.title/);

      db.prepare(`INSERT INTO setting (key) VALUES ('k')`).run();
      expect(db.prepare(`SELECT * FROM setting`).get()).toEqual({
        key: "k",
        owner: null,
        note: "it's a \\ slash",
        count: -3,
        ratio: 0.25,
        active: 1,
        meta: '"{}"',
        starts: "2024-03-01T10:20:30.000Z",
      });
      expect(() => db.prepare(`INSERT INTO setting (key, active) VALUES ('k2', 2)`).run()).toThrow(/CHECK constraint failed/);
      expect(() => db.prepare(`INSERT INTO setting (key, meta) VALUES ('k3', '{oops')`).run()).toThrow(/CHECK constraint failed/);
    } finally {
      db.close();
    }
  });

  test("each nullable or literal-defaulted column definition works in ALTER TABLE … ADD COLUMN on a table with rows", () => {
    const db = new Database(":memory:");
    try {
      const ddl = sqliteDdl(settings);
      db.exec(`CREATE TABLE "setting" (${ddl.columns[0].definition})`);
      db.exec(`INSERT INTO setting (key) VALUES ('old')`);
      for (const c of ddl.columns.slice(1)) db.exec(`ALTER TABLE "setting" ADD COLUMN ${c.definition}`);
      expect(db.prepare(`SELECT note, count, active FROM setting`).get()).toEqual({
        note: "it's a \\ slash",
        count: -3,
        active: 1,
      });
    } finally {
      db.close();
    }
  });
});
