// TiDB (issue 5, part 6): no TiDB server can run here. What is TiDB's own is covered
// without one: its error codes and which of them are retried, the session and the
// optimistic transactions svc uses on it, its dialect rules. Then `--backend tidb` runs
// against the MySQL-protocol server (MariaDB): TiDB's retryable codes are retried there
// too, and the task tracker suite passes on it (task-tracker-tidb.test.ts).

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { backendDiagnostics } from "../../compiler/analyze/sql/backend-rules.js";
import { openMysql } from "../../runtime/db/mysql/index.js";
import { isRetryableMysql, mapMysqlError } from "../../runtime/db/mysql/errors.js";
import { beginStatements, serverKind, sessionStatements } from "../../runtime/db/mysql/session.js";
import { emptyConstraints } from "../../runtime/db/net/constraints.js";
import { withRetries } from "../../runtime/db/retry.js";
import type { Database } from "../../runtime/contract/index.js";
import { sqlBody } from "../unit/sql/fixtures.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const tidbError = (errno: number, message: string) =>
  Object.assign(new Error(message), { errno, sqlMessage: message, code: "ER_TIDB" });

describe("TiDB error codes", () => {
  test.each([
    [9007, "Write conflict, txnStartTS=…, conflictStartTS=…"],
    [8002, "[tikv:8002]can not retry select for update statement"],
    [8022, "Error: KV error safe to retry"],
    [8028, "Information schema is changed during the execution of the statement"],
    [1213, "Deadlock found when trying to get lock; try restarting transaction"],
  ])("%i aborts the transaction and is retried", (errno, message) => {
    expect(isRetryableMysql(tidbError(errno, message), "tidb")).toBe(true);
  });

  test("with --backend mysql, TiDB's codes are not retried (they mean nothing on MySQL)", () => {
    expect([9007, 8002, 8022, 8028].map((n) => isRetryableMysql(tidbError(n, "x"), "mysql"))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  test.each([1205, 1062, 8004, 9001, 1146])("%i is never retried", (errno) => {
    expect(isRetryableMysql(tidbError(errno, "x"), "tidb")).toBe(false);
  });

  test("TiKV or PD timing out or busy (9001-9006) is a 503 busy", () => {
    for (const errno of [9001, 9002, 9003, 9004, 9005, 9006]) {
      expect(mapMysqlError(tidbError(errno, "TiKV server is busy"), emptyConstraints())).toMatchObject({
        status: 503,
        message: "database busy",
      });
    }
  });

  test("write conflicts that outlast the request's deadline end in a 503, not a 500", async () => {
    let attempts = 0;
    const err = await withRetries(
      async () => {
        attempts++;
        throw tidbError(9007, "Write conflict");
      },
      (e) => isRetryableMysql(e, "tidb"),
      { deadline: Date.now() + 100 },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 503 });
    expect(attempts).toBeGreaterThan(1);
  });
});

describe("TiDB sessions and transactions", () => {
  test("the server is told apart by its version", () => {
    expect(["8.0.11-TiDB-v7.5.1", "10.11.6-MariaDB-0+deb12u1", "8.0.36"].map(serverKind)).toEqual([
      "tidb",
      "mariadb",
      "mysql",
    ]);
  });

  test("TiDB: UTC, strict, ANSI quotes, a time limit; no SERIALIZABLE (TiDB has none) but optimistic transactions", () => {
    const tidb = sessionStatements("tidb", 30_000);
    expect(tidb).toHaveLength(1);
    expect(tidb[0]).toMatch(
      /^SET time_zone = '\+00:00', sql_mode = '[^']*ANSI_QUOTES[^']*STRICT_TRANS_TABLES[^']*', max_execution_time = 30000$/,
    );
    expect(beginStatements("tidb")).toEqual(["BEGIN OPTIMISTIC"]);
    expect(beginStatements("tidb", "repeatable read")).toEqual(["BEGIN OPTIMISTIC"]);
    // TiDB's READ COMMITTED is for pessimistic transactions only.
    expect(beginStatements("tidb", "read committed")).toEqual([
      "SET TRANSACTION ISOLATION LEVEL READ COMMITTED",
      "BEGIN PESSIMISTIC",
    ]);
    expect(sessionStatements("mariadb", 1500)).toEqual([
      expect.stringMatching(/max_statement_time = 1\.500$/),
      "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE",
    ]);
    expect(beginStatements("mysql")).toEqual(["START TRANSACTION"]);
    expect(beginStatements("mariadb", "read committed")).toEqual([
      "SET TRANSACTION ISOLATION LEVEL READ COMMITTED",
      "START TRANSACTION",
    ]);
  });
});

describe("TiDB's dialect rules (the MySQL 8 rules; -> and ->> take a path)", () => {
  const check = (text: string) =>
    backendDiagnostics({ file: "m.svc", body: sqlBody(text), params: [], kind: "query", name: "q" }, "tidb", []).map(
      (d) => [d.code, d.message],
    );

  test("what TiDB refuses is named as TiDB's", () => {
    expect(check("SELECT strftime('%Y', x) AS y FROM t RETURNING id")).toEqual([
      ["SVC3101", "`strftime` is not a function on TiDB (in query `q`)"],
      ["SVC3106", "RETURNING is not supported on TiDB (in query `q`)"],
    ]);
  });

  test("JSON operators with a path are fine on TiDB, as on MySQL 8", () => {
    expect(check("SELECT doc->>'$.a' AS a FROM t")).toEqual([]);
  });
});

const mariadb = await backendAvailable("mysql");
(mariadb ? describe : describe.skip)("--backend tidb against the MySQL-protocol server", () => {
  let ns: Namespace;
  let tidb: Database;
  let mysql: Database;

  beforeAll(async () => {
    ns = await createNamespace("mysql", "tidb");
    tidb = openMysql(ns.url, { flavor: "tidb" });
    mysql = openMysql(ns.url, { flavor: "mysql" });
    await tidb.migrate([]);
    await mysql.migrate([]);
  });

  afterAll(async () => {
    await tidb?.close();
    await mysql?.close();
    await ns?.drop();
  });

  test("a transaction aborted by a TiDB write conflict is run again; with --backend mysql it is not", async () => {
    let attempts = 0;
    const result = await tidb.transaction(async () => {
      if (++attempts === 1) throw tidbError(9007, "Write conflict");
      return "committed";
    });
    expect([result, attempts]).toEqual(["committed", 2]);

    let once = 0;
    const err = await mysql
      .transaction(async () => {
        once++;
        throw tidbError(9007, "Write conflict");
      })
      .catch((e: unknown) => e);
    expect(once).toBe(1);
    expect((err as Error).message).toBe("Write conflict");
  });
});
