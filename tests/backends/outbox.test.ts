// Events through the outbox on PostgreSQL and MariaDB (docs/language.md §2.8): two servers on
// one database, events emitted through both, two subscribers. Each event reaches each
// subscriber exactly once while leases hold (no delivery is sent by two servers), and every
// signature verifies with the standardwebhooks library.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { Webhook } from "standardwebhooks";
import { call } from "../support/http.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { EVENTS_ENV, Receiver, SECRET, buildFor } from "../events/support.js";
import { type Namespace, type NetBackend, backendAvailable, createNamespace } from "./support/databases.js";

const EVENTS = 30;
const AUDIT = `
[events.subscribers.audit]
url = "http://127.0.0.1:RECEIVER/hooks/audit"
secret = "crm_hook"
events = ["*"]
`;

for (const backend of ["postgres", "mysql"] as NetBackend[]) {
  if (!(await backendAvailable(backend))) {
    test.skip(`outbox on ${backend} (no server)`, () => undefined);
    continue;
  }

  describe(`outbox on ${backend}, two servers on one database`, () => {
    const receiver = new Receiver(() => 200);
    let dir: string;
    let ns: Namespace;
    const servers: TestServer[] = [];

    beforeAll(async () => {
      await receiver.start();
      dir = await buildFor(receiver.port, AUDIT);
      ns = await createNamespace(backend, `outbox_${backend}`);
      const args = ["--backend", backend, "--db", ns.url];
      // One after the other: the first creates the tables under the migration lock.
      servers.push(await startServer(dir, args, EVENTS_ENV));
      servers.push(await startServer(dir, args, EVENTS_ENV));
    });

    afterAll(async () => {
      for (const s of servers) expect(await s.stop()).toBe(0);
      await receiver.stop();
      await ns?.drop();
      removeDir(dir);
    });

    test("each event reaches each subscriber once, signed", async () => {
      for (let i = 0; i < EVENTS; i++) {
        const server = servers[i % 2];
        const added = await call(`${server.url}/api/tasks:add_task`, { json: { title: `task ${i}` } });
        expect(added.status).toBe(200);
        const done = await call(`${server.url}/api/tasks:complete_task`, { json: { id: added.json.data.id } });
        expect(done.status).toBe(200);
      }
      await receiver.nth(2 * EVENTS - 1);
      // Every row delivered: from here no server may send any of them again.
      for (;;) {
        const [row] = await ns.admin("SELECT COUNT(*) AS n FROM svc_outbox_deliveries WHERE state = 'delivered'");
        if (Number(row.n) === 2 * EVENTS) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(receiver.deliveries).toHaveLength(2 * EVENTS);
      const pairs = new Set(receiver.deliveries.map((d) => `${d.path} ${String(d.headers["webhook-id"])}`));
      expect(pairs.size).toBe(2 * EVENTS);
      const wh = new Webhook(SECRET);
      const titles = new Set<string>();
      for (const d of receiver.deliveries) {
        const payload = wh.verify(d.body, d.headers as Record<string, string>) as { type: string; data: { title: string } };
        expect(payload.type).toBe("task_completed");
        titles.add(payload.data.title);
      }
      expect(titles.size).toBe(EVENTS);
    });
  });
}
