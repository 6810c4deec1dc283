// The task tracker example, built and served for real and driven over sockets: every
// endpoint, and every status of docs/language.md §3. One suite, run once per backend (Hono's
// router/common.case.test.ts is the model): tests/http/task-tracker.test.ts runs it on
// SQLite, tests/backends/task-tracker-{postgres,mysql,tidb}.test.ts on the servers.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer, waitForOutput } from "../support/server.js";
import { buildServer } from "./support/build.js";

export interface SuiteBackend {
  /** For test names: "sqlite", "postgres", … */
  name: string;
  /** Prepares the database for a server built into `dir`; the server flags that choose it. */
  setup(dir: string): Promise<string[]>;
  /** Renames the task table behind the server's back (a broken schema: the next statement fails). */
  renameTable(dir: string, from: string, to: string): Promise<void>;
  /** Words the server's log says for the missing table. */
  missingTableLog: RegExp;
  teardown(dir: string): Promise<void>;
}

export function taskTrackerSuite(backend: SuiteBackend): void {
  describe(`task tracker on ${backend.name}`, () => {
    let dir: string;
    let server: TestServer;
    let api: string;

    beforeAll(async () => {
      dir = await buildServer({ mode: "project", dir: join(repoRoot, "examples", "task_tracker") });
      const dbArgs = await backend.setup(dir);
      server = await startServer(dir, [...dbArgs, "--max-body-size", "4096"]);
      api = `${server.url}/api/task_tracker`;
    });

    afterAll(async () => {
      const code = await server?.stop();
      expect(code).toBe(0);
      await backend.teardown(dir);
      removeDir(dir);
    });

    async function create(title: string, extra: Record<string, unknown> = {}) {
      const r = await call(`${api}:create_task`, { json: { title, ...extra } });
      expect(r.status).toBe(200);
      return r.json.data;
    }

    describe("actions and queries", () => {
      test("create_task returns the new row with its defaults", async () => {
        const t = await create("  Write docs  ", { priority: "high" });
        expect(t).toMatchObject({
          title: "Write docs",
          priority: "high",
          status: "open",
          description: null,
          assignee: null,
          completed_at: null,
        });
        expect(t.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
        expect(new Date(t.created_at).toISOString()).toBe(t.created_at);
        expect(Object.keys(t)).toEqual([
          "id",
          "title",
          "description",
          "priority",
          "assignee",
          "status",
          "created_at",
          "completed_at",
        ]);
      });

      test("list_tasks is newest first, with limit, offset and a status filter", async () => {
        const a = await create("first");
        const b = await create("second");
        const list = await call(`${api}:list_tasks?limit=2`);
        expect(list.status).toBe(200);
        expect(list.json.ok).toBe(true);
        expect(list.json.data.map((t: any) => t.id)).toEqual([b.id, a.id]);
        const next = await call(`${api}:list_tasks?limit=1&offset=1`);
        expect(next.json.data.map((t: any) => t.id)).toEqual([a.id]);
        const none = await call(`${api}:list_tasks?status=done`);
        expect(none.json.data.every((t: any) => t.status === "done")).toBe(true);
      });

      test("get_task returns one row, or null", async () => {
        const t = await create("look me up");
        expect((await call(`${api}:get_task?id=${t.id}`)).json).toEqual({ ok: true, data: t });
        expect((await call(`${api}:get_task?id=nope`)).json).toEqual({ ok: true, data: null });
      });

      test("a query's answer is JSON.stringify's text of its rows, whatever their text holds", async () => {
        // Written by a function generated for the row type (runtime/core/answer/json-text.ts), not JSON.stringify.
        const title = 'say "hi" \\ back, \n\t\u0001 é 中 😀 \u2028 </script>';
        const t = await create(title, { description: "a long paragraph, ".repeat(40) });
        expect(t.title).toBe(title);
        const one = await call(`${api}:get_task?id=${t.id}`);
        expect(one.json.data).toEqual(t);
        expect(one.text).toBe(JSON.stringify({ ok: true, data: t }));
        const list = await call(`${api}:list_tasks?limit=3`);
        expect(list.json.data[0]).toEqual(t);
        expect(list.text).toBe(JSON.stringify(list.json));
        // The size comes from the writer when every value was ASCII, else it is counted: each
        // answer's Content-Length is its size in UTF-8, ASCII after text beyond it and before.
        const plain = await create("plain ascii", { description: "nothing beyond ASCII here" });
        for (const id of [t.id, plain.id, t.id, plain.id]) {
          const r = await call(`${api}:get_task?id=${id}`);
          expect(Number(r.headers["content-length"])).toBe(Buffer.byteLength(r.text));
          expect(r.json.data.id).toBe(id);
        }
        const both = await call(`${api}:list_tasks?limit=2`);
        expect(Number(both.headers["content-length"])).toBe(Buffer.byteLength(both.text));
        expect(both.json.data.map((x: { id: string }) => x.id)).toEqual([plain.id, t.id]);
      });

      test("start, complete and delete follow the state machine", async () => {
        const t = await create("move me");
        const notYet = await call(`${api}:complete_task`, { json: { id: t.id } });
        expect(notYet.status).toBe(400);
        expect(notYet.json).toEqual({ ok: false, error: "only a task in progress can be completed" });

        const started = await call(`${api}:start_task`, { json: { id: t.id, assignee: " ada " } });
        expect(started.status).toBe(200);
        expect(started.json.data).toMatchObject({ status: "in_progress", assignee: "ada" });

        const again = await call(`${api}:start_task`, { json: { id: t.id, assignee: "bob" } });
        expect(again.status).toBe(400);

        const done = await call(`${api}:complete_task`, { json: { id: t.id } });
        expect(done.json.data.status).toBe("done");
        expect(new Date(done.json.data.completed_at).toISOString()).toBe(done.json.data.completed_at);

        const deleted = await call(`${api}:delete_task`, { json: { id: t.id } });
        expect(deleted.json.data).toEqual(done.json.data);
        expect((await call(`${api}:get_task?id=${t.id}`)).json.data).toBeNull();
        const gone = await call(`${api}:delete_task`, { json: { id: t.id } });
        expect(gone.status).toBe(404);
        expect(gone.json).toEqual({ ok: false, error: "task not found" });
      });
    });

    describe("declared routes", () => {
      test("path parameters are merged into the arguments", async () => {
        const t = await create("routed");
        const got = await call(`${server.url}/v1/tasks/${t.id}`);
        expect(got.json.data.id).toBe(t.id);
        const started = await call(`${server.url}/v1/tasks/${t.id}/start`, { json: { assignee: "grace" } });
        expect(started.json.data).toMatchObject({ id: t.id, status: "in_progress", assignee: "grace" });
        const deleted = await call(`${server.url}/v1/tasks/${t.id}`, { method: "DELETE" });
        expect(deleted.json.data.id).toBe(t.id);
      });

      test("a fixed segment declared first wins over a :param", async () => {
        const open = await call(`${server.url}/v1/tasks/open?limit=3`);
        expect(open.status).toBe(200);
        expect(Array.isArray(open.json.data)).toBe(true);
        expect(open.json.data.length).toBeLessThanOrEqual(3);
      });

      test("the default endpoint stays next to the route", async () => {
        const viaRoute = await call(`${server.url}/v1/tasks`, { json: { title: "via route" } });
        expect(viaRoute.json.data.title).toBe("via route");
      });
    });

    describe("statuses", () => {
      test("400: fail, missing, wrong type, unknown name, enum, malformed JSON", async () => {
        const cases: [unknown, RegExp][] = [
          [{ title: "   " }, /title is required/],
          [{}, /title/],
          [{ title: 5 }, /title/],
          [{ title: "x", colour: "red" }, /colour/],
          [{ title: "x", priority: "urgent" }, /priority/],
          [{ title: { $ne: "" } }, /title/],
          [{ title: ["a", "b"] }, /title/],
        ];
        for (const [body, message] of cases) {
          const r = await call(`${api}:create_task`, { json: body });
          expect(r.status).toBe(400);
          expect(r.json.ok).toBe(false);
          expect(r.json.error).toMatch(message);
        }
        const malformed = await call(`${api}:create_task`, {
          body: "{not json",
          headers: { "content-type": "application/json" },
        });
        expect(malformed.status).toBe(400);
        expect(malformed.json.ok).toBe(false);
      });

      test("400: query-string values are coerced to the declared types", async () => {
        for (const q of ["limit=abc", "limit=1e309", "limit=1.5", "limit=1&limit=2", "offset[]=1"]) {
          const r = await call(`${api}:list_tasks?${q}`);
          expect(r.status).toBe(400);
          expect(r.json.error).toMatch(/limit|offset/);
        }
      });

      test("404: unknown action, query or path", async () => {
        for (const path of ["/api/task_tracker:nope", "/api/nope:list_tasks", "/nowhere"]) {
          const r = await call(`${server.url}${path}`);
          expect(r.status).toBe(404);
          expect(r.json.ok).toBe(false);
        }
      });

      test("405 with Allow: wrong method on an action or a query", async () => {
        const getAction = await call(`${api}:create_task`);
        expect(getAction.status).toBe(405);
        expect(getAction.headers.allow).toBe("POST");
        const postQuery = await call(`${api}:list_tasks`, { json: {} });
        expect(postQuery.status).toBe(405);
        expect(postQuery.headers.allow).toBe("GET");
      });

      test("413: a body over --max-body-size", async () => {
        const r = await call(`${api}:create_task`, { json: { title: "x".repeat(5000) } });
        expect(r.status).toBe(413);
        expect(r.json.ok).toBe(false);
      });

      test("415: a body that is neither JSON nor a form", async () => {
        const r = await call(`${api}:create_task`, { body: "title=x", headers: { "content-type": "text/plain" } });
        expect(r.status).toBe(415);
      });

      test("a form post is coerced like a query string", async () => {
        const r = await call(`${api}:create_task`, {
          body: "title=From+a+form&priority=low&assignee=",
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
        expect(r.status).toBe(200);
        expect(r.json.data).toMatchObject({ title: "From a form", priority: "low", assignee: null });
      });

      test("a multipart form post is coerced the same way", async () => {
        const boundary = "svcFormBoundary";
        const field = (name: string, value: string) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
        const r = await call(`${api}:create_task`, {
          body: `${field("title", "From multipart")}${field("priority", "high")}${field("assignee", "")}--${boundary}--\r\n`,
          headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        });
        expect(r.status).toBe(200);
        expect(r.json.data).toMatchObject({ title: "From multipart", priority: "high", assignee: null });
      });

      test("health answers ok with version and uptime", async () => {
        const r = await call(`${server.url}/health`);
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ status: "ok", version: "0.1.0" });
        expect(Number.isInteger(r.json.uptime_seconds)).toBe(true);
      });

      test("every answer carries a request id", async () => {
        const r = await call(`${server.url}/health`, { headers: { "x-request-id": "abc-123" } });
        expect(r.headers["x-request-id"]).toBe("abc-123");
      });
    });

    describe("injection", () => {
      // Every argument of every endpoint that reaches SQL, with text that would change the
      // statement if it were spliced in: it must come back as data, and the table must survive.
      const PROBES = [
        "'; DROP TABLE task; --",
        '" OR 1=1 --',
        "` OR 1=1 #",
        "x' OR 'a'='a",
        "\\'; SELECT 1; -- \\",
        "$1 $$ ?1 ? @id :id",
        "Robert'); DELETE FROM task WHERE ('1'='1",
        "🙂 emoji, ñ, 日本語 and a tab\t",
      ];

      test("probes in every text argument are stored and returned as data", async () => {
        for (const probe of PROBES) {
          const t = await create(probe, { description: probe, assignee: probe });
          expect(t).toMatchObject({ title: probe.trim(), description: probe, assignee: probe });
          const got = await call(`${api}:get_task?id=${encodeURIComponent(t.id)}`);
          expect(got.json.data).toEqual(t);
          const started = await call(`${api}:start_task`, { json: { id: t.id, assignee: probe } });
          expect(started.json.data.assignee).toBe(probe.trim());
        }
      });

      test("probes as ids and filters match nothing and break nothing", async () => {
        const before = (await call(`${api}:list_tasks?limit=1000`)).json.data.length;
        for (const probe of PROBES) {
          const q = encodeURIComponent(probe);
          expect((await call(`${api}:get_task?id=${q}`)).json).toEqual({ ok: true, data: null });
          expect((await call(`${api}:list_tasks?status=${q}`)).json).toEqual({ ok: true, data: [] });
          expect((await call(`${api}:delete_task`, { json: { id: probe } })).status).toBe(404);
          expect((await call(`${api}:start_task`, { json: { id: probe, assignee: "x" } })).status).toBe(404);
          expect((await call(`${server.url}/v1/tasks/${q}`)).json).toEqual({ ok: true, data: null });
        }
        expect((await call(`${api}:list_tasks?limit=1000`)).json.data.length).toBe(before);
      });
    });

    describe("500", () => {
      test("an internal error says only 'internal error'; the details go to the log", async () => {
        // Break the database behind the server's back: the prepared statement now fails.
        await backend.renameTable(dir, "task", "task_moved");
        try {
          const r = await call(`${api}:list_tasks`);
          expect(r.status).toBe(500);
          expect(r.json).toEqual({ ok: false, error: "internal error" });
          expect(r.text).not.toMatch(/task|sqlite|postgres|mysql|at /i);
          expect(await waitForOutput(server, backend.missingTableLog)).toMatch(backend.missingTableLog);
        } finally {
          await backend.renameTable(dir, "task_moved", "task");
        }
        expect((await call(`${api}:list_tasks?limit=1`)).status).toBe(200);
      });
    });
  });
}
