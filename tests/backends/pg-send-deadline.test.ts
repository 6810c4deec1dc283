// Statements that wait for a connection while the database is slow to take connections
// (issue 15, part 4): one that was answered 503 is never sent afterwards, so it never
// commits after its answer; and once the database takes connections again every pooled
// connection serves requests (none is left behind by a statement given up on while its
// connection was being opened).

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { openPostgres } from "../../runtime/db/postgres/index.js";
import type { Database, StatementSpec } from "../../runtime/contract/index.js";
import { type Namespace, SERVER_URLS, backendAvailable, createNamespace } from "./support/databases.js";
import { TcpProxy } from "./support/proxy.js";

const insert: StatementSpec = {
  name: "item.insert",
  sql: { postgres: { text: "INSERT INTO item (id) VALUES ($1)", slots: [0] } },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ok = await backendAvailable("postgres");
(ok ? describe : describe.skip)("postgres: statements given up on while connections open", () => {
  let ns: Namespace;
  let proxy: TcpProxy;
  let db: Database;

  beforeAll(async () => {
    ns = await createNamespace("postgres", "send_deadline");
    await ns.admin("CREATE TABLE item (id text PRIMARY KEY)");
    const real = new URL(SERVER_URLS.postgres);
    proxy = new TcpProxy(real.hostname, Number(real.port || 5432));
    const via = new URL(ns.url);
    via.port = String(await proxy.start());
    via.searchParams.set("pool_size", "2");
    via.searchParams.set("acquire_timeout_ms", "600");
    via.searchParams.set("connect_timeout_ms", "400");
    db = openPostgres(via.toString(), { requestTimeoutMs: 2000 });
    await db.migrate([]);
    await db.prepare([insert]);
  });

  afterAll(async () => {
    await db?.close();
    await proxy?.stop();
    await ns?.drop();
  });

  const outcome = (id: string) =>
    db.run(insert, [id]).then(
      () => "ok",
      (err: { status?: number; message?: string }) => `${err.status ?? ""} ${err.message}`,
    );

  test("a statement answered 503 is not written later, and the whole pool serves afterwards", async () => {
    expect(await outcome("warm")).toBe("ok");
    proxy.hold();
    const ids = Array.from({ length: 8 }, (_, i) => `d${i}`);
    const pending = ids.map(outcome);
    // Past the acquire deadline, and while the second round of connection attempts (the
    // first timed out at 400 ms) is still being opened.
    await sleep(700);
    proxy.release();
    const answers = await Promise.all(pending);
    // Anything still on its way to the database has arrived by now.
    await sleep(1000);
    const stored = new Set((await ns.admin("SELECT id FROM item")).map((r) => String(r.id)));
    const lateWrites = ids.filter((id, i) => answers[i] !== "ok" && stored.has(id));
    const lostWrites = ids.filter((id, i) => answers[i] === "ok" && !stored.has(id));

    const after = await Promise.all(Array.from({ length: 20 }, (_, i) => outcome(`e${i}`)));
    const refused = after.filter((a) => a !== "ok");
    console.log(
      `held connections: ${ids.length} inserts (${answers.filter((a) => a === "ok").length} ok, ` +
        `${lateWrites.length} written after a 503); afterwards ${after.length} inserts, ${refused.length} refused`,
    );
    expect(lateWrites).toEqual([]);
    expect(lostWrites).toEqual([]);
    expect(refused).toEqual([]);
  }, 30_000);
});
