// The example's route files and pages (docs/service.md §4.6, §4.7) on PostgreSQL and MySQL/MariaDB:
// the same data reaches the HTML and the route envelopes as on SQLite (tests/pages/ has
// the full page suite on SQLite): a task created through the JSON route, listed and shown
// by the pages, moved through its states by form posts, and deleted.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

let dir: string;

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "examples", "task_tracker") });
});

afterAll(() => removeDir(dir));

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`${backend}: route files and pages`, () => {
    let ns: Namespace;
    let server: TestServer;
    let api: string;

    beforeAll(async () => {
      ns = await createNamespace(backend, "pages");
      server = await startServer(dir, ["--db", ns.url, "--workers", "1"]);
      api = `${server.url}/api/task_tracker`;
    });

    afterAll(async () => {
      expect(await server?.stop()).toBe(0);
      await ns?.drop();
    });

    const form = (url: string, fields: Record<string, string>) =>
      call(url, {
        method: "POST",
        body: new URLSearchParams(fields).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      });

    test("a task created by the JSON route is in the list page and on its own page", async () => {
      const created = await call(api, { json: { title: "Paint the <fence>", priority: "high" } });
      expect(created.status).toBe(200);
      const t = created.json.data.result;
      expect(t).toMatchObject({ title: "Paint the <fence>", priority: "high", status: "open", assignee: null });

      const list = await call(`${server.url}/tasks`);
      expect(list.status).toBe(200);
      expect(list.text).toContain(`href="/tasks/${t.id}"`);
      expect(list.text).toContain("Paint the &lt;fence&gt;");
      expect(list.text).toContain("badge-open");

      const detail = await call(`${server.url}/tasks/${t.id}`);
      expect(detail.status).toBe(200);
      expect(detail.text).toContain("Unassigned");
      expect(detail.text).toContain(`action="/api/task_tracker/${t.id}?handler=start_task"`);
      expect(detail.text).toContain(t.created_at);
    });

    test("form posts move a task through its states, and the pages follow", async () => {
      const t = (await call(api, { json: { title: "Form flow" } })).json.data.result;
      const started = await form(`${api}/${t.id}?handler=start_task`, { assignee: "grace" });
      expect(started.status).toBe(303);
      expect(started.headers.location).toBe(`/tasks/${t.id}`);
      expect((await call(`${server.url}/tasks/${t.id}`)).text).toContain("handler=complete_task");

      expect((await form(`${api}/${t.id}?handler=complete_task`, {})).status).toBe(303);
      const done = (await call(`${api}/${t.id}`)).json.data.result;
      expect(done).toMatchObject({ status: "done", assignee: "grace" });
      expect(new Date(done.completed_at).toISOString()).toBe(done.completed_at);

      expect((await form(`${api}/${t.id}?handler=delete_task`, {})).status).toBe(303);
      expect((await call(`${api}/${t.id}`)).status).toBe(404);
      expect((await call(`${server.url}/tasks/${t.id}`)).status).toBe(404);
    });

    test("the list route pages through the records newest first", async () => {
      const a = (await call(api, { json: { title: "page a" } })).json.data.result;
      const b = (await call(api, { json: { title: "page b" } })).json.data.result;
      const first = await call(`${api}?limit=2`);
      expect(first.json.data.records.map((r: { id: string }) => r.id)).toEqual([b.id, a.id]);
      const second = await call(`${api}?limit=1&offset=1`);
      expect(second.json.data.records.map((r: { id: string }) => r.id)).toEqual([a.id]);
    });
  });
}
