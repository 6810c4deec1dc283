// The PostgreSQL writer's pieces that need no database (the whole plan's SQL is the golden
// fixtures/evolve-plan-postgres/plan/postgres.sql, run for real by tests/backends/evolve-postgres).

import { describe, expect, test } from "../../support/jest.js";
import { expandDefinition, postgresWriter, viewSchemaName } from "../../../runtime/migrate/postgres.js";
import { fillColumns } from "../../../runtime/migrate/row-expression.js";
import { live, pgTable, renameHeadline } from "./tables.js";

const same = (sql: string) => ({ postgres: sql, mysql: sql, sqlite: sql });

describe("the PostgreSQL writer", () => {
  test("a column expand adds is nullable and without its default; a CHECK follows the new name", () => {
    const col = { name: "stage", definition: `"stage" text NOT NULL DEFAULT 'todo' CHECK ("stage" IN ('todo', 'done'))`, sqlType: "text", nullable: false, hasDefault: true };
    expect(expandDefinition(col, "stage__svc_new")).toBe(`"stage__svc_new" text CHECK ("stage__svc_new" IN ('todo', 'done'))`);
    expect(expandDefinition({ ...col, definition: `"at" timestamp with time zone NOT NULL` }, "at2")).toBe(`"at2" timestamp with time zone`);
  });

  test("column references are filled outside string literals only", () => {
    expect(fillColumns(same("coalesce({title}, '{title}''s')"), "postgres", (n) => `NEW."${n}"`)).toBe(`coalesce(NEW."title", '{title}''s')`);
  });

  test("a rename keeps the old column until contract, and the contract's drop is not lossy", () => {
    const t = pgTable([{ name: "headline", type: "text" }], { columns: [renameHeadline] });
    const steps = postgresWriter().column(renameHeadline, { table: t, ddl: t.ddl.postgres!, live: live(["title", "text"]), build: "b", schema: "app" });
    expect(steps.expand.map((s) => s.describe)).toEqual([
      "add column headline",
      "function svc_sync_task_headline keeping title and headline in step",
      "trigger svc_sync_headline on insert and update",
      "index the rows where headline is NULL, for the batches",
      "copy title into headline (batches of 1000)",
      "drop the index of rows to fill",
      "check headline IS NOT NULL (not valid yet)",
      "validate the check on headline",
    ]);
    expect(steps.expand.filter((s) => s.repeat === true)).toHaveLength(1);
    // The batches' partial index is built and dropped without a transaction (CONCURRENTLY).
    expect(steps.expand.filter((s) => !s.transactional).map((s) => s.sql)).toEqual([
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "svc_fill_task_headline" ON "app"."task" ("id") WHERE "headline" IS NULL`,
      `DROP INDEX CONCURRENTLY IF EXISTS "app"."svc_fill_task_headline"`,
    ]);
    expect(steps.contract.map((s) => [s.describe, s.lossy])).toEqual([
      ["drop trigger svc_sync_headline", false],
      ["drop function svc_sync_task_headline", false],
      ["drop column title", false],
      ["headline NOT NULL (the validated check spares the scan)", false],
      ["drop the check on headline", false],
    ]);
  });

  test("the view schema is named after the build, beside a named schema", () => {
    expect(viewSchemaName("abc", null)).toBe("svc_abc");
    expect(viewSchemaName("abc", "public")).toBe("svc_abc");
    expect(viewSchemaName("abc", "app")).toBe("app_svc_abc");
  });

  test("an index is built CONCURRENTLY outside a transaction; a unique one brings its duplicates query", () => {
    const t = pgTable([{ name: "a", type: "text" }]);
    const target = { table: t, ddl: t.ddl.postgres!, live: live(["a", "text"]), build: "b", schema: "app" };
    const { steps, duplicates } = postgresWriter().index(`CREATE UNIQUE INDEX IF NOT EXISTS "t_a" ON "task" ("a" DESC)`, target);
    expect(steps[1]).toMatchObject({ sql: `CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "t_a" ON "app"."task" ("a" DESC)`, transactional: false });
    expect(duplicates).toBe(`SELECT "a", count(*) AS count FROM "app"."task"\n WHERE "a" IS NOT NULL\n GROUP BY "a" HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 5`);
    expect(postgresWriter().index(`CREATE INDEX IF NOT EXISTS "t_a" ON "task" ("a")`, target).duplicates).toBeNull();
  });
});
