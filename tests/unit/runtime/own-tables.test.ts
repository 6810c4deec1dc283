// svc's own tables are the runtime's (runtime/start/own-tables.ts): which of them a spec gets, and
// the DDL each dialect gets, which must stay what the compiler wrote for them before, or a
// database an earlier server made would no longer migrate.

import { describe, expect, test } from "../../support/jest.js";
import { ownStatements, ownTables } from "../../../runtime/start/own-tables.js";
import { sessionsTable } from "../../../runtime/auth/sessions-table.js";
import { idempotencyTable } from "../../../runtime/idempotency/table.js";
import { deliveriesTable, recordDeliverySql } from "../../../runtime/webhooks/table.js";
import type { WebhookSpec } from "../../../runtime/contract/index.js";

type Uses = Parameters<typeof ownTables>[0];
const hook = { name: "m.hook" } as WebhookSpec;

describe("svc's own tables", () => {
  test("a spec gets the tables of the features it uses, and their statements", () => {
    const names = (spec: Uses) => ownTables(spec).map((t) => t.name);
    expect(names({})).toEqual([]);
    expect(names({ webhooks: [] })).toEqual([]);
    expect(names({ webhooks: [hook] })).toEqual(["svc_webhook_deliveries"]);
    expect(names({ idempotency: true })).toEqual(["svc_idempotency_keys"]);
    expect(names({ auth: { sessions: { lifetimeS: 60, cookie: "s" } } })).toEqual(["svc_sessions"]);
    expect(names({ auth: { jwt: { secret: "k", lifetimeS: 60, rolesClaim: "roles" } } })).toEqual(["svc_revocations"]);
    const all: Uses = { webhooks: [hook], idempotency: true, auth: { sessions: { lifetimeS: 60, cookie: "s" } } };
    expect(names(all)).toEqual(["svc_webhook_deliveries", "svc_idempotency_keys", "svc_sessions"]);
    const statements = ownStatements(all, "sqlite").map((s) => s.name);
    expect(statements).toContain("svc_webhook_deliveries.record");
    expect(statements.filter((s) => s.startsWith("svc_idempotency_keys."))).toHaveLength(5);
    expect(statements.filter((s) => s.startsWith("svc_sessions."))).toHaveLength(6);
    // Jobs: their tables, and on each dialect the statements it runs (a claim differs on SQLite).
    expect(names({ jobs: { jobs: [], schedules: [] } })).toEqual(["svc_jobs", "svc_schedules"]);
    // A build declaring schema changes keeps their history (runtime/migrate).
    expect(names({ schema: { build: "b", dropTables: ["old"] } })).toEqual(["svc_migrations"]);
    expect(names({ tables: [{ name: "t", ddl: {}, changes: { columns: [], dropColumns: ["x"] } }] })).toEqual(["svc_migrations"]);
    expect(names({ tables: [{ name: "t", ddl: {} }], schema: { build: "b", dropTables: [] } })).toEqual([]);
    const jobs = { jobs: { jobs: [], schedules: [] } };
    for (const dialect of ["sqlite", "postgres", "mysql"] as const) {
      const own = ownStatements(jobs, dialect);
      expect(own.length).toBeGreaterThan(0);
      for (const s of own) expect(s.sql[dialect]).toBeDefined();
    }
    // Every statement is written for every dialect.
    for (const s of ownStatements(all, "sqlite")) expect(Object.keys(s.sql).sort()).toEqual(["mysql", "postgres", "sqlite"]);
  });

  test("each dialect's DDL is the compiler's for a resource of the same fields", () => {
    expect(deliveriesTable.ddl.sqlite?.createTable).toBe(
      'CREATE TABLE IF NOT EXISTS "svc_webhook_deliveries" (\n  "id" TEXT NOT NULL PRIMARY KEY,\n  "webhook" TEXT NOT NULL,\n' +
        `  "delivery" TEXT NOT NULL,\n  "received_at" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))\n)`,
    );
    expect(deliveriesTable.ddl.postgres?.columns.at(-1)).toEqual({
      name: "received_at",
      definition: '"received_at" timestamptz NOT NULL DEFAULT now()',
      sqlType: "timestamp with time zone",
      nullable: false,
      hasDefault: true,
    });
    expect(idempotencyTable.ddl.mysql?.columns.find((c) => c.name === "body")).toEqual({
      name: "body",
      definition: "`body` LONGTEXT",
      sqlType: "longtext",
      nullable: true,
      hasDefault: false,
    });
    expect(idempotencyTable.ddl.mysql?.createTable.endsWith(") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin")).toBe(true);
    // MySQL indexes a TEXT column by a prefix; an integer one whole.
    expect(sessionsTable.ddl.mysql?.createIndexes).toEqual([
      "CREATE INDEX IF NOT EXISTS `svc_sessions_subject_idx` ON `svc_sessions` (`subject`(255))",
      "CREATE INDEX IF NOT EXISTS `svc_sessions_expires_at_idx` ON `svc_sessions` (`expires_at`(255))",
    ]);
    expect(idempotencyTable.ddl.mysql?.createIndexes).toEqual([
      "CREATE INDEX IF NOT EXISTS `svc_idempotency_keys_expires_at_idx` ON `svc_idempotency_keys` (`expires_at`)",
    ]);
    expect(sessionsTable.ddl.postgres?.primaryKey).toEqual(["id"]);
  });

  test("a delivery already recorded changes no row, in every dialect, instead of failing", () => {
    expect(recordDeliverySql.sql.sqlite?.text).toBe(
      'INSERT INTO "svc_webhook_deliveries" ("id", "webhook", "delivery") VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    expect(recordDeliverySql.sql.postgres?.text).toBe(
      'INSERT INTO "svc_webhook_deliveries" ("id", "webhook", "delivery") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    );
    expect(recordDeliverySql.sql.mysql?.text).toBe("INSERT IGNORE INTO `svc_webhook_deliveries` (`id`, `webhook`, `delivery`) VALUES (?, ?, ?)");
  });
});
