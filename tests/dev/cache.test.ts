// svc dev rebuilds through its build cache: the log line of a reload says what it reused,
// and what it serves is the edit.

import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { DevServer } from "../../compiler/dev/server.js";
import { edit, writeProject } from "./project.js";

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe("svc dev's rebuilds", () => {
  test("re-parse and re-check only the edited file and statement, say so, and serve the edit", async () => {
    const project = writeProject();
    cleanup.push(project);
    const lines: string[] = [];
    const dev = await DevServer.start({
      target: { mode: "project", dir: project },
      port: 0,
      watch: false,
      say: (line) => lines.push(line),
      logSink: () => undefined,
    });
    try {
      await dev.idle();
      const reloaded = () => lines.filter((l) => l.startsWith("svc dev: reloaded")).at(-1);

      const module = join(project, "modules/notes/notes.svc");
      edit(project, "modules/notes/notes.svc", "'v1' AS tag", "'v2' AS tag");
      expect(await dev.rebuild([module])).toMatchObject({ ok: true });
      // Of the module file and the route file, and of the one query: the edited ones were done again.
      expect(reloaded()).toMatch(
        /^svc dev: reloaded \(.*notes\.svc\) in \d+ ms \(reused 1\/2 files, 0\/1 SQL statements, 3\/3 templates and jq programs\)$/,
      );
      const list = await fetch(`${dev.url}/api/notes:list_notes`);
      expect(await list.json()).toMatchObject({ ok: true, data: [] });
      await fetch(`${dev.url}/api/notes:add_note`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ body: "kept" }),
      });
      expect(await (await fetch(`${dev.url}/api/notes:list_notes`)).json()).toMatchObject({ data: [{ body: "kept", tag: "v2" }] });

      const page = join(project, "app/notes/page.html");
      edit(project, "app/notes/page.html", "<h1>Notes v1</h1>", "<h1>Notes v2</h1>");
      expect(await dev.rebuild([page])).toMatchObject({ ok: true });
      expect(reloaded()).toMatch(/ \(reused 2\/2 files, 1\/1 SQL statements, 2\/3 templates and jq programs\)$/);
      const html = await (await fetch(`${dev.url}/notes`, { headers: { accept: "text/html" } })).text();
      expect(html).toContain("<h1>Notes v2</h1>");
      expect(html).toContain("<li>kept</li>");
    } finally {
      await dev.close();
    }
  }, 60_000);
});
