// The spans below a request (runtime/traces/spans.ts) on a real SQLite database: a query SQLite
// answers with its own JSON keeps that answer and has its query span around it, the statement
// below; statements are children of the span of the database view they run on (a request's,
// an action's, a transaction's); nothing is made on the database itself, outside a request.

import { afterEach, beforeEach, expect, test } from "../../support/jest.js";
import { rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import BetterSqlite3 from "better-sqlite3";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import type { Awaitable, CallInput, Database, EndpointSpec, Executor, ServerSpec, StatementSpec, TransactionOptions } from "../../../runtime/contract/index.js";
import { traceCarrier } from "../../../runtime/lang/trace-context.js";
import type { MatchResult } from "../../../runtime/core/router.js";
import { Tracing } from "../../../runtime/traces/tracing.js";
import { type LeafShape, type RecordedSpan, SpanKind, Tracer } from "../../../runtime/traces/span.js";
import { samplerFromEnv } from "../../../runtime/traces/sampler.js";
import { TracedDatabase, tracedSpec } from "../../../runtime/traces/spans.js";

const byId: StatementSpec = {
  name: "m.item_by_id",
  sql: {
    sqlite: {
      text: "SELECT id, title FROM item WHERE id = ?",
      slots: [0],
      columns: ["id", "title"],
      row: (v) => ({ id: v[0], title: v[1] }),
      json: "SELECT json_object('id', id, 'title', title) FROM item WHERE id = ?",
    },
  },
};

let file: string;
let sqlite: SqliteDatabase;
let finished: RecordedSpan[];
let tracing: Tracing;
let tracer: Tracer;
let generalPathRuns: number;

beforeEach(() => {
  file = `/tmp/svc-traced-${process.pid}-${Math.random().toString(36).slice(2)}.db`;
  const raw = new BetterSqlite3(file);
  raw.exec("CREATE TABLE item (id TEXT PRIMARY KEY, title TEXT NOT NULL)");
  raw.exec("INSERT INTO item VALUES ('a', 'first'), ('b', 'second')");
  raw.close();
  sqlite = openSqlite(file);
  sqlite.prepare([byId]);
  finished = [];
  const ended = (span: RecordedSpan) => void finished.push(span);
  tracer = new Tracer(samplerFromEnv({}), ended);
  tracing = new Tracing(tracer, { ended, forceFlush: async () => undefined, shutdown: async () => undefined });
  generalPathRuns = 0;
});

afterEach(() => {
  sqlite.close();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
});

/** SQLite's statements without its `json`: a database as PostgreSQL's and MySQL's adapters are to a query. */
class RowsOnly implements Database {
  readonly dialect = "sqlite" as const;
  constructor(private readonly db: Database) {}
  all(stmt: StatementSpec, args: readonly unknown[]) {
    return this.db.all(stmt, args);
  }
  one(stmt: StatementSpec, args: readonly unknown[]) {
    return this.db.one(stmt, args);
  }
  run(stmt: StatementSpec, args: readonly unknown[]) {
    return this.db.run(stmt, args);
  }
  migrate(): Promise<void> {
    throw new Error("not migrated here");
  }
  prepare(stmts: readonly StatementSpec[]) {
    return this.db.prepare(stmts);
  }
  transaction<T>(fn: (tx: Executor) => Awaitable<T>, options?: TransactionOptions) {
    return this.db.transaction(fn, options);
  }
  ping() {
    return this.db.ping();
  }
  close() {
    return this.db.close();
  }
}

/** A query as generated code writes one: `run` by rows, `answer` by SQLite's JSON when the database has `json`. */
function query(): EndpointSpec {
  const id = (input: CallInput) => input.args.id as string;
  return {
    kind: "query",
    name: "m.get_item",
    run: async (db, input) => {
      generalPathRuns++;
      return db.one(byId, [id(input)]);
    },
    answer: (db, input) => (db.json === undefined ? undefined : db.json(byId, [id(input)], true)),
  } as EndpointSpec;
}

function tracedQuery(endpoint: EndpointSpec): EndpointSpec {
  const spec = { routes: [{ method: "GET", path: "/items/:id", target: { kind: "endpoint", endpoint } }] } as unknown as ServerSpec;
  const target = tracedSpec(spec, tracing).routes[0]!.target;
  if (target.kind !== "endpoint") throw new Error("the route lost its endpoint");
  return target.endpoint;
}

const input = (id: string): CallInput => ({ args: Object.assign(Object.create(null) as Record<string, unknown>, { id }), text: true }) as CallInput;

test("a query SQLite answers keeps its JSON answer, in its query span, its statement below", async () => {
  const endpoint = tracedQuery(query());
  const db = new TracedDatabase(sqlite, tracing, [byId]);
  const request = tracer.start("GET /items/:id", SpanKind.SERVER, {}, null);
  const answer = await endpoint.answer!(db.under(request), input("b"));
  request.end();
  expect(answer).toBe('{"id":"b","title":"second"}');
  // The general path (`run`, rows then JSON in JavaScript) did not run.
  expect(generalPathRuns).toBe(0);
  const spans = finished;
  const querySpan = spans.find((s) => s.name === "query m.get_item")!;
  const statement = spans.find((s) => s.name === "m.item_by_id")!;
  expect(querySpan.parentSpanId).toBe(request.spanId);
  expect(statement.parentSpanId).toBe(querySpan.spanId);
  expect(statement.attributes).toMatchObject({ "db.system.name": "sqlite", "db.operation.name": "SELECT", "svc.statement": "m.item_by_id" });
  // Never an argument value.
  expect(JSON.stringify(statement.attributes)).not.toContain('"b"');
});

test("on a database without `json` the answer is undefined and makes no span: `run` answers, in its own", async () => {
  const endpoint = tracedQuery(query());
  const rowsOnly = new TracedDatabase(new RowsOnly(sqlite), tracing, [byId]);
  expect(rowsOnly.json).toBeUndefined();
  const request = tracer.start("GET /items/:id", SpanKind.SERVER, {}, null);
  const view = rowsOnly.under(request);
  expect(endpoint.answer!(view, input("a"))).toBeUndefined();
  const answered = await endpoint.run(view, input("a"), {} as never);
  request.end();
  expect(answered).toEqual({ id: "a", title: "first" });
  expect(generalPathRuns).toBe(1);
  const names = finished.map((s) => s.name);
  expect(names.filter((n) => n === "query m.get_item")).toHaveLength(1);
  expect(names.filter((n) => n === "m.item_by_id")).toHaveLength(1);
});

test("statements are children of their view's span, siblings of each other, whatever else runs meanwhile", async () => {
  const db = new TracedDatabase(sqlite, tracing, [byId]);
  const first = tracer.start("GET /items", SpanKind.SERVER, {}, null);
  const second = tracer.start("GET /items", SpanKind.SERVER, {}, null);
  const [a, b] = [db.under(first), db.under(second)];
  // Interleaved, as two requests' awaits are: each statement keeps its own request's span.
  await Promise.all([
    (async () => {
      await a.one(byId, ["a"]);
      await Promise.resolve();
      await a.json!(byId, ["b"], true);
    })(),
    (async () => {
      await b.one(byId, ["b"]);
      await b.all(byId, ["a"]);
    })(),
  ]);
  first.end();
  second.end();
  const statements = finished.filter((s) => s.name === "m.item_by_id");
  expect(statements).toHaveLength(4);
  expect(statements.filter((s) => s.parentSpanId === first.spanId)).toHaveLength(2);
  expect(statements.filter((s) => s.parentSpanId === second.spanId)).toHaveLength(2);
  // The views are the database's: the base itself still runs statements in no span.
  expect(a.dialect).toBe("sqlite");
  expect(db.span).toBeUndefined();
  // Every view's prototype is the database made at start, a view's view's too: a view as the
  // prototype of the next would give V8 a hidden class per request, collected as old garbage.
  const child = tracer.start("query m.get_item", SpanKind.INTERNAL, {}, first);
  expect(Object.getPrototypeOf(a)).toBe(db);
  expect(Object.getPrototypeOf(a.under!(child))).toBe(db);
  expect(a.under!(child).span).toBe(child);
});

test("a transaction's statements are children of the view it was opened on, and what it enqueues links to that span", async () => {
  const db = new TracedDatabase(sqlite, tracing, [byId]);
  const request = tracer.start("POST /items", SpanKind.SERVER, {}, null);
  const endpoint = tracing.within("action m.add", {}, db.under(request), (action) =>
    action.transaction(async (tx) => {
      await tx.one(byId, ["a"]);
      // What enqueue and emit store: the action's span, the transaction's parent.
      return traceCarrier(tx);
    }),
  );
  const carrier = await endpoint;
  request.end();
  const action = finished.find((s) => s.name === "action m.add")!;
  expect(action.parentSpanId).toBe(request.spanId);
  expect(finished.find((s) => s.name === "m.item_by_id")!.parentSpanId).toBe(action.spanId);
  expect(carrier!.traceparent).toBe(`00-${request.traceId}-${action.spanId}-01`);
});

test("a failing statement's span is marked failed and ended; outside a request none is made", async () => {
  const db = new TracedDatabase(sqlite, tracing, [byId]);
  const broken: StatementSpec = { name: "m.broken", sql: { sqlite: { text: "SELECT nope FROM item", slots: [] } } };
  const request = tracer.start("GET /broken", SpanKind.SERVER, {}, null);
  await expect(async () => db.under(request).all(broken, [])).rejects.toThrow();
  request.end();
  const failed = finished.find((s) => s.name === "m.broken")!;
  expect(failed.statusCode).toBe(2);
  finished.length = 0;
  expect(await db.one(byId, ["a"])).toEqual({ id: "a", title: "first" });
  expect(finished).toHaveLength(0);
});

test("with the exporter the only sink, a statement's span reaches it by its fields, no span object made: its parent's ids, its own, its times inside its parent's; a failing one is a span marked failed; none below a span not sampled", async () => {
  interface Leaf {
    parent: RecordedSpan;
    spanId: string;
    name: string;
    attributes: Record<string, unknown>;
    startMs: number;
    endMs: number;
  }
  const leaves: Leaf[] = [];
  const hex = (s0: number, s1: number) => s0.toString(16).padStart(8, "0") + s1.toString(16).padStart(8, "0");
  const sink = {
    leaf: (parent: RecordedSpan, s0: number, s1: number, shape: LeafShape, startMs: number, endMs: number) =>
      void leaves.push({ parent, spanId: hex(s0, s1), name: shape.name, attributes: shape.attributes, startMs, endMs }),
  };
  const ended = (span: RecordedSpan) => void finished.push(span);
  tracing = new Tracing(tracer, { ended, forceFlush: async () => undefined, shutdown: async () => undefined }, sink);
  const endpoint = tracedQuery(query());
  const db = new TracedDatabase(sqlite, tracing, [byId]);
  const request = tracer.start("GET /items/:id", SpanKind.SERVER, {}, null);
  expect(await endpoint.answer!(db.under(request), input("a"))).toBe('{"id":"a","title":"first"}');
  expect(await db.under(request).one(byId, ["b"])).toEqual({ id: "b", title: "second" });
  request.end();
  const querySpan = finished.find((s) => s.name === "query m.get_item")!;
  expect(leaves.map((l) => [l.name, l.parent.spanId])).toEqual([
    ["m.item_by_id", querySpan.spanId],
    ["m.item_by_id", request.spanId],
  ]);
  // No span object went to the other sinks for them.
  expect(finished.map((s) => s.name).sort()).toEqual(["GET /items/:id", "query m.get_item"]);
  const [first, second] = leaves as [Leaf, Leaf];
  expect(first.spanId).toMatch(/^[0-9a-f]{16}$/);
  expect(first.spanId).not.toBe("0".repeat(16));
  expect(new Set([first.spanId, second.spanId, querySpan.spanId, request.spanId]).size).toBe(4);
  expect(first.attributes).toMatchObject({ "svc.statement": "m.item_by_id", "db.operation.name": "SELECT" });
  expect(querySpan.startMs).toBeLessThanOrEqual(first.startMs);
  expect(first.startMs).toBeLessThanOrEqual(first.endMs);
  expect(first.endMs).toBeLessThanOrEqual(querySpan.endMs);
  expect(second.endMs).toBeLessThanOrEqual(request.endMs);

  // A failing statement: a span object, marked failed, through the sinks.
  const broken: StatementSpec = { name: "m.broken", sql: { sqlite: { text: "SELECT nope FROM item", slots: [] } } };
  const failing = tracer.start("GET /broken", SpanKind.SERVER, {}, null);
  await expect(async () => db.under(failing).all(broken, [])).rejects.toThrow();
  failing.end();
  const failed = finished.find((s) => s.name === "m.broken")!;
  expect([failed.statusCode, failed.parentSpanId, leaves.length]).toEqual([2, failing.spanId, 2]);

  // A statement answered by a promise: a leaf once it settles; a span object once it rejects,
  // marked failed unless the rejection is an answer (a conflict's 409).
  const insert: StatementSpec = { name: "m.add_item", sql: { sqlite: { text: "INSERT INTO item (id, title) VALUES (?, ?)", slots: [0, 1] } } };
  sqlite.prepare([insert]);
  class DiskFull extends RowsOnly {
    override run(): Promise<number> {
      return Promise.reject(new Error("database or disk is full"));
    }
  }
  // With metrics on, the statements' duration series is given the span's readings, a failure's too.
  const observed: [string, number][] = [];
  const timer = {
    observe: (stmt: StatementSpec, seconds: number) => void observed.push([stmt.name, seconds]),
    timed: <T>(stmt: StatementSpec, started: number, result: T) => {
      observed.push([stmt.name, -started]);
      return result;
    },
  };
  const full = new TracedDatabase(new DiskFull(sqlite), tracing, [insert], timer);
  const writing = tracer.start("POST /items", SpanKind.SERVER, {}, null);
  expect(await db.under(writing).run(insert, ["c", "third"])).toBe(1);
  await expect(db.under(writing).run(insert, ["c", "again"])).rejects.toThrow();
  await expect(full.under(writing).run(insert, ["d", "fourth"])).rejects.toThrow("disk is full");
  writing.end();
  expect(leaves.slice(2).map((l) => [l.name, l.parent.spanId])).toEqual([["m.add_item", writing.spanId]]);
  const rejected = finished.filter((s) => s.name === "m.add_item");
  expect(rejected.map((s) => [s.statusCode, s.parentSpanId, s.endMs >= s.startMs])).toEqual([
    [0, writing.spanId, true],
    [2, writing.spanId, true],
  ]);
  expect(observed).toEqual([["m.add_item", (rejected[1]!.endMs - rejected[1]!.startMs) / 1000]]);
  // Outside a request, the series times the statement on its own.
  await expect(full.run(insert, ["e", "fifth"])).rejects.toThrow("disk is full");
  expect(observed.map(([name, seconds]) => [name, seconds < 0])).toEqual([
    ["m.add_item", false],
    ["m.add_item", true],
  ]);

  // Below a span not sampled, nothing at all.
  const unsampled = new Tracer(samplerFromEnv({ OTEL_TRACES_SAMPLER: "always_off" }), ended).start("GET /items/:id", SpanKind.SERVER, {}, null);
  const before = finished.length;
  expect(await db.under(unsampled).one(byId, ["a"])).toEqual({ id: "a", title: "first" });
  expect([finished.length, leaves.length]).toEqual([before, 3]);
});

test("a request answered at its route's template or /health shares one kept list of later attributes per status and client; a path with parameters or a 5xx has its own; its times are the handler's", () => {
  const request = (address: string) => ({ method: "GET", headers: {}, socket: { remoteAddress: address } }) as unknown as IncomingMessage;
  const answer = (status: number) => ({ statusCode: status }) as ServerResponse;
  const target = { kind: "endpoint" };
  const answered = (address: string, path: string, status: number, routePath: string | null): RecordedSpan => {
    const span = tracing.started(request(address), path, `r-${Math.random()}`, 1000.25);
    const match = routePath === null ? null : ({ target, params: null, path: routePath, logged: null } as unknown as MatchResult);
    tracing.answered(span, match, path, path === (routePath ?? "/health"), "GET", answer(status), 1002.5);
    return span;
  };
  const [a, b, c, d, e, f, g] = [
    answered("10.0.0.1", "/items", 200, "/items"),
    answered("10.0.0.1", "/items", 200, "/items"),
    answered("10.0.0.2", "/items", 200, "/items"),
    answered("10.0.0.1", "/items/7", 200, "/items/:id"),
    answered("10.0.0.1", "/items", 503, "/items"),
    answered("10.0.0.1", "/health", 200, null),
    answered("10.0.0.1", "/health", 200, null),
  ];
  expect(a.repeated).not.toBeNull();
  expect(b.repeated).toBe(a.repeated);
  expect(c.repeated).not.toBe(a.repeated);
  expect([d.repeated, e.repeated]).toEqual([null, null]);
  expect(g.repeated).toBe(f.repeated);
  expect(f.repeated).not.toBe(a.repeated);
  const later = (span: RecordedSpan) => {
    const all = span.allAttributes();
    return [all["client.address"], all["url.path"], all["http.response.status_code"], all["error.type"]];
  };
  expect([a, c, d, e, f].map(later)).toEqual([
    ["10.0.0.1", "/items", 200, undefined],
    ["10.0.0.2", "/items", 200, undefined],
    ["10.0.0.1", "/items/7", 200, undefined],
    ["10.0.0.1", "/items", 503, "503"],
    ["10.0.0.1", "/health", 200, undefined],
  ]);
  expect(b.name).toBe("GET /items");
  expect([d.startMs, d.endMs, a.startMs, a.endMs]).toEqual([1000.25, 1002.5, 1000.25, 1002.5]);
  expect(b.attribute("http.route")).toBe("/items");
});
