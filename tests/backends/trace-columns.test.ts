// The trace context stored with jobs and events (docs/operations.md, Traces) on SQLite,
// PostgreSQL and MariaDB: svc_jobs and svc_outbox as made before the trace columns, with a
// row each, get the two nullable columns at start; enqueue and emit inside a span store its
// W3C trace context in their one statement, outside one nothing; a claim and a lease hand it
// back, and the rows made before come back with none.

import { afterAll, describe, expect, test } from "../support/jest.js";
import Sqlite from "better-sqlite3";
import { join } from "node:path";
import { openDatabase } from "../../runtime/db/index.js";
import { enqueue } from "../../runtime/jobs/enqueue.js";
import { claim } from "../../runtime/jobs/claim.js";
import { jobStatementList, jobsTable, schedulesTable } from "../../runtime/jobs/table.js";
import { emit } from "../../runtime/outbox/emit.js";
import { claimDue, fanOut } from "../../runtime/outbox/claim.js";
import { outboxStatementList, outboxTables } from "../../runtime/outbox/table.js";
import type { CallContext, Database, Dialect, Executor, JobSpec, TableSpec } from "../../runtime/contract/index.js";
import { removeDir, tmpDir } from "../support/server.js";
import { backendAvailable, createNamespace, type Namespace } from "./support/databases.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN_ID = "00f067aa0ba902b7";
const span = { spanContext: () => ({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1, traceState: { serialize: () => "vendor=abc" } }) };
const JOB: JobSpec = { name: "t.record", queue: "default", attempts: 3, timeoutMs: 10_000, priority: 0, run: () => undefined };

/** A table's DDL as it was before the trace columns (they are its last two). */
function beforeTraceColumns(table: TableSpec): TableSpec {
  const ddl = { ...table.ddl };
  for (const d of Object.keys(ddl) as Dialect[]) {
    const t = ddl[d]!;
    ddl[d] = {
      ...t,
      createTable: t.createTable.replace(/,\n {2}["`]trace(parent|state)["`][^,\n]*/g, ""),
      columns: t.columns.filter((c) => !c.name.startsWith("trace")),
    };
  }
  return { ...table, ddl };
}

type Raw = (text: string) => Promise<unknown>;

const OLD_JOB = (q: (n: string) => string) =>
  `INSERT INTO ${q("svc_jobs")} (${["id", "job", "queue", "args", "state", "priority", "run_at", "attempt", "max_attempts", "timeout_ms", "lease_owner", "last_error", "unique_key", "created_at"].map(q).join(", ")}) ` +
  `VALUES ('old', 't.record', 'default', '{}', 'queued', 0, 0, 0, 3, 10000, '', '', NULL, 0)`;
const OLD_EVENT = (q: (n: string) => string) =>
  `INSERT INTO ${q("svc_outbox")} (${["id", "type", "body", "created_at", "fanned_out"].map(q).join(", ")}) VALUES ('msg_old', 'added', '{}', 0, 0)`;

async function checkBackend(open: () => Promise<Database>, raw: Raw): Promise<void> {
  // The tables as a server before this change made them, with a row each.
  const before = await open();
  await before.migrate([beforeTraceColumns(jobsTable), schedulesTable, beforeTraceColumns(outboxTables[0]), outboxTables[1]]);
  await before.close();
  const q = (n: string) => (before.dialect === "mysql" ? `\`${n}\`` : `"${n}"`);
  await raw(OLD_JOB(q));
  await raw(OLD_EVENT(q));

  // Start: the columns are added; the statements that name them prepare.
  const db = await open();
  try {
    await db.migrate([jobsTable, schedulesTable, ...outboxTables]);
    await db.prepare([...jobStatementList, ...outboxStatementList].filter((s) => s.sql[db.dialect] !== undefined));
    const ctx = {} as CallContext;
    await db.transaction(async (tx) => {
      // A traced request's transaction, as runtime/traces hands it to an action: its span with it.
      const traced: Executor = { all: (st, args) => tx.all(st, args), one: (st, args) => tx.one(st, args), run: (st, args) => tx.run(st, args), span };
      await enqueue(traced, JOB, {}, { id: "traced" });
      await emit(traced, ctx, "added", {});
    });
    await db.transaction(async (tx) => {
      await enqueue(tx, JOB, {}, { id: "untraced" });
      await emit(tx, ctx, "added", {});
    });

    const now = Date.now();
    const jobs = new Map((await claim(db, "owner.1", 10, now)).map((c) => [c.id, c.enqueuedBy]));
    expect(jobs.get("traced")).toEqual({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`, tracestate: "vendor=abc" });
    expect(jobs.get("untraced")).toBeNull();
    expect(jobs.get("old")).toBeNull();

    expect(await fanOut(db, [{ name: "crm", events: ["*"] }], now)).toBe(3);
    const deliveries = await claimDue(db, "owner", now, now + 60_000, 10);
    const carried = deliveries.map((d) => d.emittedBy);
    expect(deliveries).toHaveLength(3);
    expect(carried.filter((c) => c === null)).toHaveLength(2);
    expect(carried).toContainEqual({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`, tracestate: "vendor=abc" });
  } finally {
    await db.close();
  }
}

describe("trace columns on sqlite", () => {
  const dir = tmpDir("trace-columns-");
  afterAll(() => removeDir(dir));
  test("added to tables made before them; enqueue and emit store the current span's context", async () => {
    const file = join(dir, "t.db");
    await checkBackend(
      () => openDatabase({ backend: "sqlite", db: file }),
      async (text) => {
        const raw = new Sqlite(file);
        raw.exec(text);
        raw.close();
      },
    );
  });
});

for (const backend of ["postgres", "mysql"] as const) {
  if (!(await backendAvailable(backend))) {
    test.skip(`trace columns on ${backend} (no server)`, () => undefined);
    continue;
  }
  describe(`trace columns on ${backend}`, () => {
    let ns: Namespace | undefined;
    afterAll(async () => ns?.drop());
    test("added to tables made before them; enqueue and emit store the current span's context", async () => {
      ns = await createNamespace(backend, `trace_${backend}`);
      const url = ns.url;
      await checkBackend(() => openDatabase({ backend, db: url }), (text) => ns!.admin(text));
    });
  });
}
