// Exactly once across processes: two servers on one SQLite file receive the same deliveries
// at the same moment (a provider retrying while the first attempt is still running, or a
// load balancer sending a retry elsewhere), and a server started later on the same file
// still knows what was handled. The record lives in the database, not in a process.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { sign as octokitSign } from "@octokit/webhooks-methods";
import { call } from "../support/http.js";
import { type TestServer, removeDir } from "../support/server.js";
import { SECRETS, buildServer, startHooks, writeFileCredentials } from "./support.js";

let dir: string;
let db: string;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  dir = await buildServer();
  writeFileCredentials(dir);
  db = join(dir, "shared.db");
  // One after the other: the first creates the tables, the second finds them.
  a = await startHooks(dir, db);
  b = await startHooks(dir, db);
});

afterAll(async () => {
  expect(await a?.stop()).toBe(0);
  expect(await b?.stop()).toBe(0);
  removeDir(dir);
});

async function deliver(server: TestServer, delivery: string, body: string) {
  return call(`${server.url}/hooks/github`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-github-event": "push",
      "x-github-delivery": delivery,
      "x-hub-signature-256": await octokitSign(SECRETS.github, body),
    },
  });
}

async function stored(server: TestServer): Promise<any[]> {
  const r = await call(`${server.url}/api/hooks:list_received?source=github`);
  expect(r.status).toBe(200);
  return r.json.data;
}

describe("two server processes on one database", () => {
  test("the same delivery sent to both at once runs its handler once", async () => {
    const ids = Array.from({ length: 15 }, (_, i) => `dup-${i}`);
    const answers = await Promise.all(
      ids.flatMap((id) => {
        const body = JSON.stringify({ ref: `refs/heads/${id}` });
        return [deliver(a, id, body), deliver(b, id, body), deliver(a, id, body), deliver(b, id, body)];
      }),
    );
    for (const r of answers) expect(r.status).toBe(200);
    // Per delivery: exactly one answer carries the stored row, the others are "already handled".
    for (let i = 0; i < ids.length; i++) {
      const four = answers.slice(i * 4, i * 4 + 4);
      expect(four.filter((r) => r.json.data !== null)).toHaveLength(1);
    }
    const rows = await stored(a);
    expect(rows.map((r) => r.delivery).sort()).toEqual([...ids].sort());
    expect(await stored(b)).toEqual(rows);
  });

  test("a server started later on the same database still answers a handled delivery as a duplicate", async () => {
    const body = JSON.stringify({ ref: "refs/heads/later" });
    expect((await deliver(a, "later-1", body)).json.data).toMatchObject({ delivery: "later-1" });
    expect(await a.stop()).toBe(0);
    a = await startHooks(dir, db);
    const again = await deliver(a, "later-1", body);
    expect(again.status).toBe(200);
    expect(again.json.data).toBeNull();
    expect((await stored(b)).filter((r) => r.delivery === "later-1")).toHaveLength(1);
  });
});
