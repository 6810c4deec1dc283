// Events through the outbox on SQLite, over real sockets (docs/language.md §2.9): a
// subscriber that answers 500 three times then 200 gets one event under one webhook-id,
// each attempt signed so that the standardwebhooks library verifies it; an action that
// fails after emitting leaves no event behind to deliver, ever; a graceful stop gives an
// attempt's lease back without counting it.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import BetterSqlite3 from "better-sqlite3";
import { Webhook } from "standardwebhooks";
import { call } from "../support/http.js";
import { type TestServer, removeDir, startServer, waitForOutput } from "../support/server.js";
import { EVENTS_ENV, Receiver, SECRET, buildFor } from "./support.js";

async function api(server: TestServer, action: string, args: unknown) {
  return call(`${server.url}/api/tasks:${action}`, { json: args });
}

function rows(db: string, sql: string): Record<string, unknown>[] {
  const conn = new BetterSqlite3(db, { readonly: true });
  try {
    return conn.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    conn.close();
  }
}

describe("a subscriber that answers 500 three times, then 200", () => {
  const receiver = new Receiver((n) => (n <= 3 ? 500 : 200));
  let dir: string;
  let server: TestServer;
  let db: string;

  beforeAll(async () => {
    await receiver.start();
    dir = await buildFor(receiver.port);
    db = join(dir, "events.db");
    server = await startServer(dir, ["--db", db], EVENTS_ENV);
  });

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
    await receiver.stop();
    removeDir(dir);
  });

  test("gets the event four times under one webhook-id, each attempt verified by standardwebhooks", async () => {
    const added = await api(server, "add_task", { title: "Ship the outbox" });
    expect(added.status).toBe(200);
    const id = added.json.data.id as string;

    // Emits, then fails: the event goes with the rollback.
    const failed = await api(server, "complete_and_fail", { id });
    expect(failed.status).toBe(409);
    const completed = await api(server, "complete_task", { id });
    expect(completed.status).toBe(200);

    const fourth = await receiver.nth(3);
    const all = receiver.deliveries.slice(0, 4);
    expect(all).toHaveLength(4);
    expect(fourth).toBe(all[3]);
    const ids = new Set(all.map((d) => d.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^msg_[0-9A-Z]{26}$/);
    const wh = new Webhook(SECRET);
    for (const d of all) {
      expect(d.headers["content-type"]).toBe("application/json");
      const payload = wh.verify(d.body, d.headers as Record<string, string>) as Record<string, any>;
      expect(payload.type).toBe("task_completed");
      expect(payload.data).toEqual({ id, title: "Ship the outbox", completed_at: expect.any(String), note: null });
      expect(Number.isNaN(Date.parse(payload.timestamp))).toBe(false);
    }
    // The same bytes every time: the body is stored once, when the action commits.
    expect(new Set(all.map((d) => d.body)).size).toBe(1);
    // A signature changed by a byte is refused by the library: the check above is a real one.
    expect(() => wh.verify(all[0].body.replace("Ship", "Skip"), all[0].headers as Record<string, string>)).toThrow();

    // One log line per attempt, with its number and the subscriber's status.
    const log = await waitForOutput(server, /"msg":"event delivery".*"attempt":4/);
    const lines = log.split("\n").filter((l) => l.includes('"msg":"event delivery"')).map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.attempt, l.status, l.outcome, l.subscriber, l.event_id])).toEqual([
      [1, 500, "pending", "crm", [...ids][0]],
      [2, 500, "pending", "crm", [...ids][0]],
      [3, 500, "pending", "crm", [...ids][0]],
      [4, 200, "delivered", "crm", [...ids][0]],
    ]);
    for (const l of lines) expect(typeof l.duration_ms).toBe("number");
  });

  test("/health shows the outbox: delivered, nothing pending or failed", async () => {
    let outbox: Record<string, unknown> | undefined;
    // The depth is counted by the delivery loop's pass after the last attempt settles.
    for (let i = 0; i < 200; i++) {
      const health = await call(`${server.url}/health`);
      expect(health.status).toBe(200);
      outbox = health.json.outbox;
      if (outbox?.delivered === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(outbox).toEqual({ pending: 0, failed: 0, delivered: 1, oldest_pending_seconds: null });
  });

  test("the failed action's event was never stored, so it can never be delivered", async () => {
    const events = rows(db, "SELECT type, body FROM svc_outbox");
    expect(events).toHaveLength(1);
    expect(String(events[0].body)).not.toContain("never sent");
    expect(receiver.deliveries.every((d) => !d.body.includes("never sent"))).toBe(true);
    const deliveries = rows(db, "SELECT state, attempts, last_status FROM svc_outbox_deliveries");
    expect(deliveries).toEqual([{ state: "delivered", attempts: 4, last_status: 200 }]);
  });
});

describe("a subscriber that never answers", () => {
  const receiver = new Receiver(() => null);
  let dir: string;

  beforeAll(async () => {
    await receiver.start();
    dir = await buildFor(receiver.port);
  });

  afterAll(async () => {
    await receiver.stop();
    removeDir(dir);
  });

  test("a graceful stop cuts the attempt, counts nothing and gives the lease back", async () => {
    const db = join(dir, "hung.db");
    const server = await startServer(dir, ["--db", db], EVENTS_ENV);
    try {
      const added = await api(server, "add_task", { title: "Hang" });
      expect((await api(server, "complete_task", { id: added.json.data.id })).status).toBe(200);
      await receiver.nth(0);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(rows(db, "SELECT state, attempts, lease_owner, lease_until FROM svc_outbox_deliveries")).toEqual([
      { state: "pending", attempts: 0, lease_owner: "", lease_until: 0 },
    ]);
    expect(server.output.some((l) => l.includes('"msg":"event delivery"'))).toBe(false);
  });
});
