// The pieces of the postgres and mysql adapters that need no database: the --db URL,
// argument binding, values converted to svc's JSON, constraint messages, error mapping,
// the schema plan, retry backoff and the wait for a connection.

import { describe, expect, test } from "../support/jest.js";
import { isoFromMysql, isoRows } from "../../runtime/db/mysql/rows.js";
import { isRetryableMysql, mapMysqlError } from "../../runtime/db/mysql/errors.js";
import { BindError, bindSlots } from "../../runtime/db/net/args.js";
import { constraintsOf } from "../../runtime/db/net/constraints.js";
import { planMigration } from "../../runtime/db/net/migrate.js";
import { parseNetUrl } from "../../runtime/db/net/url.js";
import { deadlines } from "../../runtime/db/postgres/index.js";
import { isRetryablePostgres, mapPostgresError } from "../../runtime/db/postgres/errors.js";
import { isoFromPostgres } from "../../runtime/db/postgres/types.js";
import { backoffMs, withRetries } from "../../runtime/db/retry.js";
import { HttpError, StartupError } from "../../runtime/core/errors.js";
import type { TableSpec } from "../../runtime/contract/index.js";
import { allTableDdl } from "../../compiler/analyze/sql/ddl/index.js";
import { taskResource } from "../unit/sql/fixtures.js";

const task = taskResource([
  { name: "task_title_key", unique: true, columns: [{ name: "title", desc: false }] },
  {
    name: "task_assignee_status_key",
    unique: true,
    columns: [
      { name: "assignee", desc: false },
      { name: "status", desc: true },
    ],
  },
]);
const TABLES: TableSpec[] = [{ name: "task", ddl: allTableDdl(task) }];

const pgError = (fields: Record<string, unknown>) =>
  Object.assign(new Error(String(fields.message ?? "pg")), { name: "PostgresError", ...fields });
const myError = (errno: number, sqlMessage: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(sqlMessage), { errno, sqlMessage, code: "ER_X", ...extra });

describe("--db URLs", () => {
  test("svc's own settings are read and removed; the rest goes to the driver", () => {
    const t = parseNetUrl(
      "postgres://app:p%40ss@db.internal:6432/tasks?pool_size=4&connect_timeout_ms=750&acquire_timeout_ms=250&schema=tenant_1&sslmode=require",
      "postgres",
      10_000,
    );
    expect(t).toMatchObject({
      host: "db.internal",
      port: 6432,
      user: "app",
      password: "p@ss",
      database: "tasks",
      schema: "tenant_1",
      settings: { poolSize: 4, connectTimeoutMs: 750, acquireTimeoutMs: 250, queueLimit: 4096, requestTimeoutMs: 10_000 },
    });
    expect(t.driverUrl).toBe("postgres://app:p%40ss@db.internal:6432/tasks?sslmode=require");
  });

  test("defaults, and the wait for a connection never outlasting the request", () => {
    expect(parseNetUrl("mysql://root@127.0.0.1/app", "mysql", 1000).settings).toEqual({
      poolSize: 10,
      connectTimeoutMs: 5000,
      acquireTimeoutMs: 1000,
      queueLimit: 4096,
      requestTimeoutMs: 1000,
    });
    // Without acquire_timeout_ms a request waits for a connection as long as its deadline allows.
    expect(parseNetUrl("mysql://root@127.0.0.1/app", "mysql", 30_000).settings.acquireTimeoutMs).toBe(30_000);
    expect(parseNetUrl("mysql://root@127.0.0.1/app?queue_limit=0", "mysql").settings.queueLimit).toBe(0);
  });

  test("the wait for a connection on PostgreSQL: the deadline less the time to open one", () => {
    const at = (url: string, timeout: number) => deadlines(parseNetUrl(url, "postgres", timeout).settings);
    // 30 s: a span of 29.75 s, 5 s to open a connection and 250 ms of reconnect delay left over.
    expect(at("postgres://u@h/d", 30_000)).toEqual({ spanMs: 29_750, acquireTimeoutMs: 24_500, connectTimeoutMs: 5000 });
    // A short deadline: half of it waits, the rest opens.
    expect(at("postgres://u@h/d", 2000)).toEqual({ spanMs: 1800, acquireTimeoutMs: 900, connectTimeoutMs: 650 });
    // An acquire_timeout_ms given is kept.
    expect(at("postgres://u@h/d?acquire_timeout_ms=250", 30_000).acquireTimeoutMs).toBe(250);
  });

  test.each<[string, "postgres" | "mysql", RegExp]>([
    ["postgres://app:secret@host/db?pool_size=0", "postgres", /pool_size=0 is not a whole number from 1 to 1000/],
    ["postgres://app:secret@host/db?pool_size=1&pool_size=2", "postgres", /pool_size is given 2 times/],
    ["postgres://app:secret@host/", "postgres", /names no database/],
    ["mysql://app:secret@host/db", "postgres", /is not a postgres URL/],
    ["mysql://app:secret@host/db?schema=x", "mysql", /schema= is for postgres/],
    ["postgres://app:secret@host/db?schema=a;drop", "postgres", /is not a plain identifier/],
    ["not a url", "mysql", /is not a URL/],
  ])("%s is refused, and the password is never shown", (url, dialect, message) => {
    expect(() => parseNetUrl(url, dialect)).toThrow(message);
    expect(() => parseNetUrl(url, dialect)).toThrow(StartupError);
    try {
      parseNetUrl(url, dialect);
    } catch (err) {
      expect((err as Error).message).not.toContain("secret");
    }
  });
});

describe("binding", () => {
  test("arguments in slot order, a slot repeated for a name used twice", () => {
    expect(bindSlots("s", [0, 0, 2, 1], ["a", 5, true])).toEqual(["a", "a", true, 5]);
    expect(bindSlots("s", [0, 1], [null, 10n])).toEqual([null, 10n]);
  });

  test.each([
    [[{ $ne: 1 }], /argument 0 is a object/],
    [[["x"]], /argument 0 is an array/],
    [[new Date(0)], /argument 0 is a Date/],
    [[Number.POSITIVE_INFINITY], /argument 0 is Infinity/],
    [[undefined], /argument 0 is undefined; pass null/],
    [[], /argument 0 is missing \(0 given\)/],
  ])("%p is refused before it reaches a driver", (args, message) => {
    expect(() => bindSlots("t.s", [0], args)).toThrow(BindError);
    expect(() => bindSlots("t.s", [0], args)).toThrow(message);
  });
});

describe("values as svc's JSON", () => {
  test.each([
    ["2024-05-01 12:00:00.123456+00", "2024-05-01T12:00:00.123Z"],
    ["2024-05-01 12:00:00+00", "2024-05-01T12:00:00.000Z"],
    ["2024-05-01 12:00:00.5", "2024-05-01T12:00:00.500Z"],
    ["2024-05-01 14:30:00.25+02:30", "2024-05-01T12:00:00.250Z"],
    ["2024-05-01 00:00:00-05", "2024-05-01T05:00:00.000Z"],
    ["infinity", "infinity"],
    ["0044-03-15 12:00:00+00 BC", "0044-03-15 12:00:00+00 BC"],
  ])("postgres %s → %s", (text, iso) => {
    expect(isoFromPostgres(text)).toBe(iso);
  });

  test.each([
    ["2024-05-01 12:00:00.123", "2024-05-01T12:00:00.123Z"],
    ["2024-05-01 12:00:00", "2024-05-01T12:00:00.000Z"],
    ["2024-05-01 12:00:00.999999", "2024-05-01T12:00:00.999Z"],
    ["0000-00-00 00:00:00", "0000-00-00 00:00:00"],
  ])("mysql %s → %s", (text, iso) => {
    expect(isoFromMysql(text)).toBe(iso);
  });

  test("only DATETIME and TIMESTAMP columns of a mysql row are converted", () => {
    const rows = [{ at: "2024-05-01 12:00:00.1", day: "2024-05-01", title: "2024-05-01 12:00:00" }];
    const fields = [
      { name: "at", columnType: 12 },
      { name: "day", columnType: 10 },
      { name: "title", columnType: 253 },
    ];
    expect(isoRows(rows, fields)).toEqual([
      { at: "2024-05-01T12:00:00.100Z", day: "2024-05-01", title: "2024-05-01 12:00:00" },
    ]);
  });
});

describe("constraints read from the DDL", () => {
  test("primary keys, CHECKs and unique indexes, for both dialects", () => {
    for (const dialect of ["postgres", "mysql"] as const) {
      const c = constraintsOf(TABLES, dialect);
      expect(c.primaryKeys.get("task")).toEqual(["id"]);
      expect([...c.checks.keys()]).toEqual(["task.priority", "task.status"]);
      expect(c.uniqueIndexes.get("task_title_key")).toEqual({ table: "task", columns: ["title"] });
      expect(c.uniqueIndexes.get("task_assignee_status_key")).toEqual({
        table: "task",
        columns: ["assignee", "status"],
      });
    }
  });
});

describe("postgres errors", () => {
  const c = constraintsOf(TABLES, "postgres");
  const mapped = (e: unknown) => mapPostgresError(e, c) as HttpError;

  test("unique: the columns, never the values", () => {
    expect(
      mapped(
        pgError({
          code: "23505",
          table_name: "task",
          detail: "Key (title)=(secret plans) already exists.",
          constraint_name: "task_title_key",
        }),
      ),
    ).toMatchObject({
      status: 409,
      message: "task.title already exists",
    });
    expect(
      mapped(
        pgError({ code: "23505", table_name: "task", detail: "Key (assignee, status)=(ada, open) already exists." }),
      ).message,
    ).toBe("task (assignee, status) already exists");
    expect(
      mapped(
        pgError({
          code: "23505",
          table_name: "task",
          detail: "Key (lower(title))=(x) already exists.",
          constraint_name: "task_lower_key",
        }),
      ).message,
    ).toBe("a row with the same values for index task_lower_key already exists");
  });

  test("not null, check, foreign key, bad values", () => {
    expect(mapped(pgError({ code: "23502", table_name: "task", column_name: "title" }))).toMatchObject({
      status: 400,
      message: "task.title is required",
    });
    expect(
      mapped(pgError({ code: "23514", table_name: "task", constraint_name: "task_priority_check" })),
    ).toMatchObject({ status: 400, message: "check priority failed" });
    expect(mapped(pgError({ code: "23503", table_name: "task" }))).toMatchObject({ status: 409 });
    expect(mapped(pgError({ code: "22P02", message: "invalid input syntax for type json" }))).toMatchObject({
      status: 400,
    });
  });

  test("a dropped connection or a server going down is a 503; a cancelled wait is busy", () => {
    for (const e of [
      pgError({ code: "57P01" }),
      pgError({ code: "08006" }),
      pgError({ code: "53300" }),
      Object.assign(new Error("x"), { code: "ECONNREFUSED" }),
      Object.assign(new Error("x"), { code: "CONNECTION_CLOSED" }),
    ]) {
      expect(mapped(e)).toMatchObject({
        status: 503,
        message: "database unavailable",
        headers: { "Retry-After": "1" },
      });
    }
    expect(
      mapped(Object.assign(new Error("57014: canceling statement due to user request"), { code: "57014" })),
    ).toMatchObject({ status: 503, message: "database busy" });
  });

  test("only 40001 and 40P01 are retried, and they stay unmapped for the retry loop", () => {
    expect(
      [
        pgError({ code: "40001" }),
        pgError({ code: "40P01" }),
        pgError({ code: "23505" }),
        pgError({ code: "40002" }),
      ].map(isRetryablePostgres),
    ).toEqual([true, true, false, false]);
    const e = pgError({ code: "40001" });
    expect(mapPostgresError(e, c)).toBe(e);
  });

  test("anything else is returned as it is (a 500, logged)", () => {
    const e = new TypeError("a bug");
    expect(mapPostgresError(e, c)).toBe(e);
  });
});

describe("mysql errors", () => {
  const c = constraintsOf(TABLES, "mysql");
  const mapped = (e: unknown) => mapMysqlError(e, c) as HttpError;

  test("duplicate keys in MariaDB's and MySQL's wording", () => {
    expect(mapped(myError(1062, "Duplicate entry 'x' for key 'task_title_key'")).message).toBe(
      "task.title already exists",
    );
    expect(mapped(myError(1062, "Duplicate entry 'x' for key 'task.task_title_key'")).message).toBe(
      "task.title already exists",
    );
    expect(mapped(myError(1062, "Duplicate entry 'x' for key 'PRIMARY'")).message).toBe("task.id already exists");
    expect(mapped(myError(1062, "Duplicate entry 'x' for key 'other_idx'")).message).toBe(
      "a row with the same values for index other_idx already exists",
    );
  });

  test("not null, check (MariaDB names the column, MySQL a number), too long, a bad value", () => {
    expect(mapped(myError(1048, "Column 'title' cannot be null"))).toMatchObject({
      status: 400,
      message: "task.title is required",
    });
    expect(mapped(myError(4025, "CONSTRAINT `task.priority` failed for `db`.`task`"))).toMatchObject({
      status: 400,
      message: "check priority failed",
    });
    c.checkNames.set("task_chk_2", { table: "task", column: "status" });
    expect(mapped(myError(3819, "Check constraint 'task_chk_2' is violated."))).toMatchObject({
      status: 400,
      message: "check status failed",
    });
    expect(mapped(myError(1406, "Data too long for column 'id' at row 1"))).toMatchObject({
      status: 400,
      message: "invalid value for task.id: too long",
    });
    expect(mapped(myError(1411, "Incorrect datetime value: 'x' for function str_to_date"))).toMatchObject({
      status: 400,
    });
    expect(mapped(myError(1452, "Cannot add or update a child row"))).toMatchObject({ status: 409 });
  });

  test("gone or killed connections are 503 unavailable; lock waits are 503 busy", () => {
    for (const e of [
      myError(1927, "Connection was killed"),
      myError(2013, "Lost connection"),
      Object.assign(new Error("x"), { code: "PROTOCOL_CONNECTION_LOST", fatal: true }),
      Object.assign(new Error("x"), { code: "ECONNREFUSED", errno: -111 }),
    ]) {
      expect(mapped(e)).toMatchObject({ status: 503, message: "database unavailable" });
    }
    expect(mapped(myError(1205, "Lock wait timeout exceeded"))).toMatchObject({
      status: 503,
      message: "database busy",
    });
  });

  test("only deadlocks are retried on MySQL and MariaDB", () => {
    expect([1213, 1205, 1062, 9007].map((n) => isRetryableMysql(myError(n, "x"), "mysql"))).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("the schema plan", () => {
  const declared = [{ name: "task", ddl: TABLES[0].ddl.postgres! }];
  const column = (name: string, type: string, nullable: boolean) => ({ name, type, nullable });
  const same = (a: string, b: string) => a === b;

  test("a missing table is created", () => {
    expect(planMigration(declared, new Map(), same)).toMatchObject({
      create: [{ name: "task" }],
      add: [],
      problems: [],
    });
  });

  test("the live key is compared when read: other columns, or numbered by the database, are refused (docs/language.md §2.1, Keys)", () => {
    const keyed = (id: { keyPosition: number; numbered?: boolean }, title = 0) =>
      new Map([
        [
          "task",
          TABLES[0].ddl.postgres!.columns.map((c) => ({
            name: c.name,
            type: c.sqlType,
            nullable: c.nullable,
            ...(c.name === "id" ? id : { keyPosition: c.name === "title" ? title : 0 }),
          })),
        ],
      ]);
    expect(planMigration(declared, keyed({ keyPosition: 1 }), same).problems).toEqual([]);
    expect(planMigration(declared, keyed({ keyPosition: 1 }, 2), same).problems).toEqual([
      "table task: its primary key is (id, title) in the database but declared (id); a key is not changed at start: copy the rows into a table with the new key by hand",
    ]);
    expect(planMigration(declared, keyed({ keyPosition: 1, numbered: true }), same).problems).toEqual([
      "table task: key id is numbered by the database but not declared `id(int)`; a key's kind is not changed at start",
    ]);
  });

  test("nullable or defaulted columns are added; other differences are refused, naming table and column", () => {
    const live = new Map([
      [
        "task",
        [
          column("id", "text", false),
          column("title", "bigint", false),
          column("description", "text", false),
          column("assignee", "text", true),
          column("status", "text", false),
          column("created_at", "timestamp with time zone", false),
          column("legacy", "text", true),
        ],
      ],
    ]);
    const plan = planMigration(declared, live, same);
    expect(plan.add.map((a) => a.column.name)).toEqual(["priority", "completed_at"]);
    expect(plan.problems).toEqual([
      "table task: column title is bigint in the database but declared text; add `changed from <its old type>` on the field (with `using (…) lossy` when the conversion narrows)",
      "table task: column description is NOT NULL in the database but declared nullable",
      "table task: column legacy is in the database but not declared; add `drop legacy` to drop it with its data, or `renamed from legacy` on the field that replaces it",
    ]);
  });
});

describe("retries", () => {
  test("the delay grows with each attempt up to the cap, and is random below it", () => {
    expect([0, 1, 2, 3, 10].map((n) => backoffMs(n, 5, 250, () => 0.999))).toEqual([4, 9, 19, 39, 249]);
    expect(backoffMs(3, 5, 250, () => 0)).toBe(0);
  });

  test("retryable errors are retried until success; others end it at once", async () => {
    const sleeps: number[] = [];
    let n = 0;
    const result = await withRetries(
      async () => {
        if (++n < 4) throw new Error("conflict");
        return n;
      },
      (e) => (e as Error).message === "conflict",
      { deadline: Date.now() + 10_000, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) },
    );
    expect(result).toBe(4);
    expect(sleeps).toEqual([2, 5, 10]);
    let m = 0;
    await expect(
      withRetries(
        async () => {
          m++;
          throw new Error("other");
        },
        () => false,
        { deadline: Date.now() + 10_000 },
      ),
    ).rejects.toThrow("other");
    expect(m).toBe(1);
  });

  test("a conflict that outlasts the deadline is a 503 with Retry-After", async () => {
    const err = await withRetries(
      async () => {
        throw new Error("conflict");
      },
      () => true,
      { deadline: Date.now() + 30, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 503, headers: { "Retry-After": "1" } });
  });
});
