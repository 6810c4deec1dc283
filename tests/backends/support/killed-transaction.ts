// Run as its own process by tests/backends/killed-transaction.test.ts: the exit code is the
// verdict, since the defect it guards against throws where nothing in the process can catch it.
// Transactions whose connection is cut mid-statement (through a TCP proxy, both ends closed at
// once), or whose backend is terminated, fail with a 503; the process lives on, and the next
// statement succeeds.

import type { StatementSpec } from "../../../runtime/contract/index.js";
import { openPostgres } from "../../../runtime/db/postgres/index.js";
import { TcpProxy } from "./proxy.js";

const [directUrl, adminUrl] = process.argv.slice(2);
const real = new URL(directUrl!);
const proxy = new TcpProxy(real.hostname, Number(real.port || 5432));
const url = new URL(directUrl!);
url.port = String(await proxy.start());
const pid: StatementSpec = { name: "t.pid", sql: { postgres: { text: "SELECT pg_backend_pid() AS pid", slots: [] } } };
const sleep: StatementSpec = { name: "t.sleep", sql: { postgres: { text: "SELECT pg_sleep(5)", slots: [] } } };
const one: StatementSpec = { name: "t.one", sql: { postgres: { text: "SELECT 1 AS one", slots: [] } } };

const db = openPostgres(url.toString(), { requestTimeoutMs: 20_000 });
const admin = openPostgres(adminUrl!, { requestTimeoutMs: 20_000 });
await db.prepare([pid, sleep, one]);
const kill: StatementSpec = { name: "t.kill", sql: { postgres: { text: "SELECT pg_terminate_backend($1)", slots: [0] } } };
await admin.prepare([kill]);

const failed: unknown[] = [];
for (const cut of ["proxy", "terminate", "terminate", "proxy", "terminate", "terminate"]) {
  let backend: number | null = null;
  let settled = false;
  // Its outcome is taken at once: a backend terminated fails the transaction while the admin
  // connection's answer is still on its way, and a rejection nobody handles yet ends the process.
  const outcome = db
    .transaction(async (t) => {
      backend = Number((await t.one(pid, []))!.pid);
      await t.all(sleep, []);
    })
    .then(
      () => "committed",
      (e: unknown) => (e as { status?: number }).status ?? String(e),
    )
    .finally(() => void (settled = true));
  while (backend === null && !settled) await new Promise((r) => setTimeout(r, 20));
  if (backend !== null && cut === "proxy") proxy.reset();
  else if (backend !== null) await admin.all(kill, [backend]);
  failed.push(await outcome);
  // The driver's deferred writes run on the next turns of the event loop: give them some.
  await new Promise((r) => setTimeout(r, 100));
}
const after = await db.one(one, []);
console.log(JSON.stringify({ failed, after: after?.one }));
await db.close();
await admin.close();
await proxy.stop();
