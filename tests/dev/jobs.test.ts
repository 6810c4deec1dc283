// `svc dev` runs jobs and schedules as a built server does (docs/language.md §2.8): each
// generation starts its runner and scheduler, and stops them when an edit replaces it, so a
// job enqueued before or after a reload runs once, on the one in-memory database.

import { rmSync } from "node:fs";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { DevServer } from "../../compiler/dev/server.js";
import { until } from "../support/until.js";
import { FILES, edit, writeProject } from "./project.js";

const JOBS = `
/// Writes the note later, as a job: the action only enqueues it.
job write_note(body: text) {
  insert note { body: body }
}

action add_later(body: text) {
  enqueue write_note(body: body)
}

schedule ticking every 1s runs write_note(body: "tick") missed skip
`;

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe("svc dev and jobs", () => {
  test("a job enqueued runs, a schedule fires, and both go on in the next generation after an edit", async () => {
    const project = writeProject({ "modules/notes/notes.svc": FILES["modules/notes/notes.svc"] + JOBS });
    cleanup.push(project);
    const lines: string[] = [];
    const dev = await DevServer.start({ target: { mode: "project", dir: project }, port: 0, say: (l) => lines.push(l), logSink: () => undefined });
    const notes = async (): Promise<{ body: string; tag: string }[]> =>
      ((await (await fetch(`${dev.url}/api/notes:list_notes`)).json()) as { data: { body: string; tag: string }[] }).data;
    const later = async (body: string): Promise<void> => {
      const r = await fetch(`${dev.url}/api/notes:add_later`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ body }) });
      expect(r.status).toBe(200);
    };
    try {
      await later("first");
      await until(notes, (n) => n.some((x) => x.body === "first"), "the first job run");
      await until(notes, (n) => n.some((x) => x.body === "tick"), "a schedule's tick");

      edit(project, "modules/notes/notes.svc", "'v1' AS tag", "'v2' AS tag");
      await until(notes, (n) => n.some((x) => x.tag === "v2"), "the next generation");
      const ticks = (await notes()).filter((x) => x.body === "tick").length;
      await later("second");
      const after = await until(notes, (n) => n.some((x) => x.body === "second") && n.filter((x) => x.body === "tick").length > ticks, "a job and a tick in the new generation");
      // Each job ran once: the retired generation's runner claimed nothing more.
      expect(after.filter((x) => x.body === "first")).toHaveLength(1);
      expect(after.filter((x) => x.body === "second")).toHaveLength(1);
      expect(lines.join("\n")).not.toMatch(/jobs failed/);
    } finally {
      await dev.close();
    }
  }, 60_000);

  test("job runs are in the trace view beside the requests, each with its statement", async () => {
    const project = writeProject({ "modules/notes/notes.svc": FILES["modules/notes/notes.svc"] + JOBS });
    cleanup.push(project);
    const dev = await DevServer.start({ target: { mode: "project", dir: project }, port: 0, say: () => undefined, logSink: () => undefined });
    try {
      const r = await fetch(`${dev.url}/api/notes:add_later`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ body: "traced" }) });
      expect(r.status).toBe(200);
      const page = () => fetch(`${dev.url}/_svc/traces`).then((p) => p.text());
      const list = await until(page, (html) => html.includes(">job notes.write_note<") && html.includes(">POST /api/notes:add_later<"), "a job run in the trace view");
      const id = /href="\/_svc\/traces\/([0-9a-f]{32})">job notes\.write_note</.exec(list)![1];
      const run = await (await fetch(`${dev.url}/_svc/traces/${id}`)).text();
      expect(run).toContain('<span class="s2">done</span>');
      // The run's span first, then its INSERT as a statement below it.
      const names = [...run.matchAll(/<tr class="span" data-kind="(\w+)"><td class="name"[^>]*>([^<]+)</g)].map((m) => `${m[1]} ${m[2]}`);
      expect(names[0]).toBe("root job notes.write_note");
      expect(names.slice(1).some((n) => n.startsWith("statement "))).toBe(true);
    } finally {
      await dev.close();
    }
  }, 60_000);
});
