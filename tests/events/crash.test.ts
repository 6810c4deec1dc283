// A server that dies holding a delivery (docs/language.md §2.9, "One sender at a time", "At
// least once"): SIGKILLed while its attempt waits on the subscriber, it leaves the delivery
// leased and unrecorded; another server leaves it alone while the lease holds, and once the
// lease ends sends it again under the same webhook-id, the same bytes, and records it delivered.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import BetterSqlite3 from "better-sqlite3";
import { call } from "../support/http.js";
import { removeDir, startServer } from "../support/server.js";
import { until } from "../support/until.js";
import { EVENTS_ENV, Receiver, buildFor } from "./support.js";

function sql(db: string, text: string, ...args: unknown[]): Record<string, unknown>[] {
  const conn = new BetterSqlite3(db);
  try {
    const stmt = conn.prepare(text);
    if (stmt.reader) return stmt.all(...args) as Record<string, unknown>[];
    stmt.run(...args);
    return [];
  } finally {
    conn.close();
  }
}

describe("a server SIGKILLed with a delivery leased", () => {
  // The first attempt hangs (the server dies waiting on it); the next is answered.
  const receiver = new Receiver((n) => (n === 1 ? null : 200));
  let dir: string;

  beforeAll(async () => {
    await receiver.start();
    dir = await buildFor(receiver.port);
  });

  afterAll(async () => {
    await receiver.stop();
    removeDir(dir);
  });

  test("another server leaves it while the lease holds, then delivers it, with the same webhook-id and body", async () => {
    const db = join(dir, "crash.db");
    const first = await startServer(dir, ["--db", db], EVENTS_ENV);
    try {
      const added = await call(`${first.url}/api/tasks:add_task`, { json: { title: "Survive a crash" } });
      expect((await call(`${first.url}/api/tasks:complete_task`, { json: { id: added.json.data.id } })).status).toBe(200);
      await receiver.nth(0);
      first.process.kill("SIGKILL");
    } finally {
      await first.stop();
    }
    expect(first.process.signalCode).toBe("SIGKILL");

    // Dead with its lease held: the attempt was never recorded, and nobody may send it yet.
    const [leased] = sql(db, "SELECT state, attempts, lease_owner, lease_until FROM svc_outbox_deliveries");
    expect(leased).toMatchObject({ state: "pending", attempts: 0 });
    expect(leased.lease_owner).not.toBe("");
    expect(Number(leased.lease_until)).toBeGreaterThan(Date.now());

    const second = await startServer(dir, ["--db", db], EVENTS_ENV);
    try {
      // A pass of its delivery loop has run (it counts after it claims): the lease held it off.
      await until(async () => (await call(`${second.url}/health`)).json.outbox, (o) => o?.pending === 1, "a first outbox pass");
      expect(sql(db, "SELECT lease_owner FROM svc_outbox_deliveries")).toEqual([{ lease_owner: leased.lease_owner }]);
      expect(receiver.deliveries).toHaveLength(1);

      // The lease is timeout_ms + 30 s; rather than wait that out, the test ends it.
      sql(db, "UPDATE svc_outbox_deliveries SET lease_until = ?", Date.now() - 1);
      const again = await receiver.nth(1);
      const before = receiver.deliveries[0];
      expect(again.headers["webhook-id"]).toMatch(/^msg_[0-9A-Z]{26}$/);
      expect(again.headers["webhook-id"]).toBe(before.headers["webhook-id"]);
      expect(again.body).toBe(before.body);
      const rows = await until(
        async () => sql(db, "SELECT state, attempts, last_status, lease_owner FROM svc_outbox_deliveries"),
        (r) => r[0]?.state !== "pending",
        "the delivery recorded",
      );
      expect(rows).toEqual([{ state: "delivered", attempts: 1, last_status: 200, lease_owner: "" }]);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    expect(receiver.deliveries).toHaveLength(2);
  });
});
