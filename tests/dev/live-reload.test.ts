// svc dev's live reload says, with each swap, whether open pages may show it by letting
// Unpoly re-render their main area (a save of data or of a page) or must reload whole (a
// layout, svc.toml, public/, or the first good build after an error overlay).

import { rmSync } from "node:fs";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { DevServer } from "../../compiler/dev/server.js";
import { edit, writeProject } from "./project.js";

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

interface ReloadEvent {
  reason: string;
  main: boolean;
}

/** The `reload` events of one event stream, each awaited in turn. */
async function reloadEvents(url: string, signal: AbortSignal): Promise<() => Promise<ReloadEvent>> {
  const stream = await fetch(`${url}/__svc/dev/events`, { signal });
  const reader = stream.body!.getReader();
  let buffered = "";
  return async () => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const match = /event: reload\ndata: (.*)\n\n/.exec(buffered);
      if (match) {
        buffered = buffered.slice(match.index + match[0].length);
        return JSON.parse(match[1]) as ReloadEvent;
      }
      if (Date.now() > deadline) throw new Error(`no reload event; stream so far: ${buffered}`);
      const { value, done } = await reader.read();
      if (done) throw new Error("the event stream ended");
      buffered += Buffer.from(value).toString();
    }
  };
}

describe("svc dev live reload", () => {
  test("data and page saves re-render the main area; layout, svc.toml, public/ and recovering from an error reload the page", async () => {
    const project = writeProject();
    cleanup.push(project);
    const dev = await DevServer.start({
      target: { mode: "project", dir: project },
      port: 0,
      say: () => undefined,
      logSink: () => undefined,
    });
    const stop = new AbortController();
    try {
      await dev.idle();
      const next = await reloadEvents(dev.url, stop.signal);

      edit(project, "app/notes/page.html", "Notes v1", "Notes v2");
      expect(await next()).toEqual({ reason: "app/notes/page.html", main: true });

      edit(project, "modules/notes/notes.svc", "'v1' AS tag", "'v2' AS tag");
      expect(await next()).toEqual({ reason: "modules/notes/notes.svc", main: true });

      edit(project, "app/layout.html", "<title>{{title}}</title>", "<title>{{title}} · dev</title>");
      expect(await next()).toEqual({ reason: "app/layout.html", main: false });

      edit(project, "public/hello.txt", "hello", "hello again");
      expect(await next()).toEqual({ reason: "public/hello.txt", main: false });

      edit(project, "modules/notes/notes.svc", "SELECT id, body", "SELEC id, body");
      expect(await next()).toEqual({ reason: "build error", main: false });
      edit(project, "modules/notes/notes.svc", "SELEC id, body", "SELECT id, body");
      // The pages show the overlay: only a whole reload takes it away.
      expect(await next()).toEqual({ reason: "modules/notes/notes.svc", main: false });

      edit(project, "svc.toml", 'version = "1.0.0"', 'version = "1.0.1"');
      expect(await next()).toEqual({ reason: "svc.toml", main: false });
    } finally {
      stop.abort();
      await dev.close();
    }
  });
});
