// svc's own statements that a request runs are spans below the request's when traced, like
// its endpoint's: a rate limit's counter (runtime/limits/counters.ts) and a session's lookup
// and touch (runtime/auth/sessions.ts), on a real SQLite database. Without a span (work outside
// a request) they run as before and make none.

import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { afterEach, beforeEach, expect, test } from "../../support/jest.js";
import { Logger } from "../../../runtime/core/log.js";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import { Sessions } from "../../../runtime/auth/sessions.js";
import { sessionStatements, sessionsTable } from "../../../runtime/auth/sessions-table.js";
import { DatabaseCounters } from "../../../runtime/limits/counters.js";
import { rateOf } from "../../../runtime/limits/gcra.js";
import { limitStatementList, limitStatements, limitsTable } from "../../../runtime/limits/sql.js";
import { Tracing } from "../../../runtime/traces/tracing.js";
import { type RecordedSpan, SpanKind, Tracer } from "../../../runtime/traces/span.js";
import { samplerFromEnv } from "../../../runtime/traces/sampler.js";
import { TracedDatabase } from "../../../runtime/traces/spans.js";

let file: string;
let sqlite: SqliteDatabase;
let traced: TracedDatabase;
let tracer: Tracer;
let finished: RecordedSpan[];
const log = new Logger("error", () => undefined);

beforeEach(async () => {
  file = `/tmp/svc-traced-own-${process.pid}-${Math.random().toString(36).slice(2)}.db`;
  sqlite = openSqlite(file);
  await sqlite.migrate([sessionsTable, limitsTable]);
  sqlite.prepare([...Object.values(sessionStatements), ...limitStatementList]);
  finished = [];
  const ended = (span: RecordedSpan) => void finished.push(span);
  tracer = new Tracer(samplerFromEnv({}), ended);
  const tracing = new Tracing(tracer, { ended, forceFlush: async () => undefined, shutdown: async () => undefined });
  traced = new TracedDatabase(sqlite, tracing, []);
});

afterEach(() => {
  sqlite.close();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
});

const request = () => tracer.start("GET", SpanKind.SERVER, {}, null);

test("a rate limit's counter is a statement span below the request's; outside a request, none", async () => {
  const counters = new DatabaseCounters(traced, log);
  const rate = rateOf(2, 60, 0);
  const span = request();
  expect((await counters.take("limit:by-address:127.0.0.1", Date.now(), rate, span)).allowed).toBe(true);
  await counters.forget("limit:by-address:127.0.0.1", span);
  const mine = finished.filter((s) => s.parentSpanId === span.spanId);
  expect(mine.map((s) => s.name)).toEqual(expect.arrayContaining([limitStatements.take.name, limitStatements.forget.name]));
  for (const s of mine) {
    expect(s.traceId).toBe(span.traceId);
    expect(s.attribute("svc.statement")).toBe(s.name);
  }
  const before = finished.length;
  await counters.take("limit:by-address:127.0.0.1", Date.now(), rate);
  expect(finished.slice(before).filter((s) => s.name === limitStatements.take.name)).toEqual([]);
});

test("a session's lookup, and its touch when the idle deadline moves, are statement spans below the request's", async () => {
  const token = "t".repeat(43);
  const now = Date.now();
  // Started an hour ago, last used long enough ago for this use to move its idle deadline.
  await sqlite.run(sessionStatements.create, [
    createHash("sha256").update(token, "utf8").digest("hex"),
    "user-1",
    "[]",
    new Date(now - 3_600_000).toISOString(),
    new Date(now + 60_000).toISOString(),
  ]);
  const sessions = new Sessions({ lifetimeS: 86_400, idleS: 1_800, cookie: "sid" }, traced, undefined, log);
  const span = request();
  expect(await sessions.caller(token, span)).toMatchObject({ id: "user-1" });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const mine = finished.filter((s) => s.parentSpanId === span.spanId).map((s) => s.name);
  expect(mine).toEqual(expect.arrayContaining([sessionStatements.find.name, sessionStatements.touch.name]));
  const before = finished.length;
  expect(await sessions.caller(token)).toMatchObject({ id: "user-1" });
  expect(finished.slice(before).filter((s) => s.name === sessionStatements.find.name)).toEqual([]);
});
