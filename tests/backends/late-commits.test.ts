// Writes answered 503 while the database does not answer are never committed afterwards
// (issue 15, part 4). Behind a TCP proxy that accepts connections and answers nothing
// (a black hole) for a while, create_task calls get 503 at the latest at the write timeout;
// once the database answers again, none of their rows may appear.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { type Answer, call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, SERVER_URLS, backendAvailable, createNamespace } from "./support/databases.js";
import { TcpProxy } from "./support/proxy.js";

const WRITE_TIMEOUT_MS = 1500;
const HOLD_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "examples", "task_tracker") });
});

afterAll(() => removeDir(dir));

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`${backend}: writes during a black-holed database`, () => {
    let ns: Namespace;
    let proxy: TcpProxy;
    let server: TestServer;
    let api: string;

    beforeAll(async () => {
      ns = await createNamespace(backend, "late_commits");
      const real = new URL(SERVER_URLS[backend]);
      proxy = new TcpProxy(real.hostname, Number(real.port || (backend === "postgres" ? 5432 : 3306)));
      const via = new URL(ns.url);
      via.port = String(await proxy.start());
      server = await startServer(dir, ["--db", via.toString(), "--write-timeout", String(WRITE_TIMEOUT_MS)]);
      api = `${server.url}/api/task_tracker`;
    });

    afterAll(async () => {
      await server?.stop();
      await proxy?.stop();
      await ns?.drop();
    });

    test("no create_task answered 503 is committed once the database answers again", async () => {
      expect((await call(`${api}:create_task`, { json: { title: "before" } })).status).toBe(200);
      proxy.hold();
      const sent: Promise<{ title: string; answer: Answer }>[] = [];
      const until = Date.now() + HOLD_MS;
      for (let i = 0; Date.now() < until; i++) {
        const title = `held ${i}`;
        sent.push(call(`${api}:create_task`, { json: { title } }).then((answer) => ({ title, answer })));
        await sleep(100);
      }
      proxy.release();
      const answers = await Promise.all(sent);
      // Whatever was still on its way has arrived and committed by now.
      await sleep(1500);
      const stored = new Set((await ns.admin("SELECT title FROM task")).map((r) => String(r.title)));
      const refused = answers.filter((a) => a.answer.status === 503);
      const late = refused.filter((a) => stored.has(a.title)).map((a) => a.title);
      const lost = answers.filter((a) => a.answer.status === 200 && !stored.has(a.title)).map((a) => a.title);
      const other = answers.filter((a) => a.answer.status !== 200 && a.answer.status !== 503);
      console.log(
        `${backend} black hole: ${answers.length} create_task calls, ${refused.length} answered 503, ` +
          `${late.length} of those committed afterwards`,
      );
      expect(refused.length).toBeGreaterThan(0);
      expect(late).toEqual([]);
      expect(lost).toEqual([]);
      expect(other.map((a) => `${a.answer.status} ${a.answer.text}`)).toEqual([]);
    }, 30_000);
  });
}
