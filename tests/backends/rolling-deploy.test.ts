// A rolling deploy on one PostgreSQL database (issue 15, part 1): two servers of the task
// tracker as built serve requests, more at once than their pools have connections, while a
// server of a newer build, whose task has one more nullable column, starts beside them and
// adds that column. Every answer of an old server is checked against the request it
// answers: a task created is the one sent and is stored under the id answered, a task read
// is the one asked for, a task started is started. None may fail or carry another
// request's data.

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer, tmpDir } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const RUN_MS = 3000;
const CLIENTS_PER_SERVER = 12;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ok = await backendAvailable("postgres");
(ok ? describe : describe.skip)("postgres: a rolling deploy that adds a nullable column", () => {
  let oldDir: string;
  let newDir: string;
  let source: string;
  let ns: Namespace;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    const example = join(repoRoot, "examples", "task_tracker");
    source = tmpDir("rolling-src-");
    cpSync(example, source, { recursive: true });
    const svc = join(source, "modules", "task_tracker", "task_tracker.svc");
    writeFileSync(svc, readFileSync(svc, "utf8").replace("  completed_at: timestamp?\n", "  completed_at: timestamp?\n  label: text?\n"));
    [oldDir, newDir] = await Promise.all([
      buildServer({ mode: "project", dir: example }, "rolling-old-"),
      buildServer({ mode: "project", dir: source }, "rolling-new-"),
    ]);
    ns = await createNamespace("postgres", "rolling");
  });

  afterAll(async () => {
    for (const s of servers) await s.stop();
    await ns?.drop();
    for (const d of [oldDir, newDir, source]) if (d) removeDir(d);
  });

  test("old servers answer every request with its own data while the new build migrates", async () => {
    const url = new URL(ns.url);
    // Fewer connections than requests in flight: statements queue on each connection.
    url.searchParams.set("pool_size", "3");
    const olds = await Promise.all([0, 1].map(() => startServer(oldDir, ["--db", url.toString()])));
    servers.push(...olds);

    const wrong: string[] = [];
    const failed: string[] = [];
    const created: { id: string; title: string }[] = [];
    let sent = 0;
    const until = Date.now() + RUN_MS;
    const client = async (api: string, c: number) => {
      for (let i = 0; Date.now() < until; i++) {
        sent++;
        const kind = i % 4;
        if (kind === 0 || created.length === 0) {
          const title = `s${api.length} c${c} n${i}`;
          const a = await call(`${api}:create_task`, { json: { title } });
          if (a.status !== 200) failed.push(`create_task ${a.status} ${a.text}`);
          else if (a.json.data?.title !== title) wrong.push(`create_task ${title} -> ${a.text}`);
          else created.push({ id: a.json.data.id, title });
        } else if (kind === 1) {
          const a = await call(`${api}:list_tasks?limit=5`);
          if (a.status !== 200) failed.push(`list_tasks ${a.status} ${a.text}`);
        } else if (kind === 2) {
          const t = created[Math.floor(Math.random() * created.length)];
          const a = await call(`${api}:get_task?id=${t.id}`);
          if (a.status !== 200) failed.push(`get_task ${a.status} ${a.text}`);
          else if (a.json.data?.id !== t.id || a.json.data.title !== t.title) wrong.push(`get_task ${t.id} -> ${a.text}`);
        } else {
          const t = created[Math.floor(Math.random() * created.length)];
          const a = await call(`${api}:start_task`, { json: { id: t.id, assignee: `c${c}` } });
          // 400: another client started it first.
          if (a.status === 200) {
            if (a.json.data?.id !== t.id || a.json.data.status !== "in_progress") wrong.push(`start_task ${t.id} -> ${a.text}`);
          } else if (a.status !== 400) failed.push(`start_task ${a.status} ${a.text}`);
        }
      }
    };
    const load = Promise.all(
      olds.flatMap((s) => Array.from({ length: CLIENTS_PER_SERVER }, (_, c) => client(`${s.url}/api/task_tracker`, c))),
    );
    await sleep(RUN_MS / 4);
    servers.push(await startServer(newDir, ["--db", url.toString()]));
    await load;

    const stored = new Map((await ns.admin("SELECT id, title FROM task")).map((r) => [String(r.id), String(r.title)]));
    const lost = created.filter((t) => stored.get(t.id) !== t.title);
    const columns = (await ns.admin("SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'task'", [ns.name])).map((r) => r.column_name);
    console.log(
      `rolling deploy: ${sent} old-server requests, ${wrong.length} wrong answers, ${failed.length} failed, ` +
        `${lost.length} created tasks not stored as answered`,
    );
    expect(columns).toContain("label");
    expect(wrong).toEqual([]);
    expect(failed).toEqual([]);
    expect(lost).toEqual([]);
  }, 60_000);
});
