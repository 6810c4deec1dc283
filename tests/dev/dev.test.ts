import { Agent, type IncomingMessage, request } from "node:http";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { DevServer } from "../../compiler/dev/server.js";
import { startChild } from "./helpers.js";
import { edit, writeProject } from "./project.js";

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: string;
  /** The client side port of the connection: the same one means the connection was kept. */
  localPort: number | undefined;
}

type Fetch = (path: string, init?: { method?: string; body?: unknown; accept?: string }) => Promise<Answer>;

/** One keep-alive connection for all of a test's requests. */
function client(base: string): { fetch: Fetch; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const fetchOne: Fetch = (path, init = {}) =>
    new Promise((resolve, reject) => {
      const body = init.body === undefined ? undefined : JSON.stringify(init.body);
      const headers: Record<string, string> = { accept: init.accept ?? "application/json" };
      if (body !== undefined) headers["content-type"] = "application/json";
      const req = request(
        new URL(path, base),
        { agent, method: init.method ?? "GET", headers },
        (res: IncomingMessage) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, localPort: res.socket?.localPort }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { fetch: fetchOne, close: () => agent.destroy() };
}

/** Calls `probe` until `done` holds for its answer, failing with the last answer after `timeoutMs`. */
async function until(probe: () => Promise<Answer>, done: (a: Answer) => boolean, timeoutMs = 20_000): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  let last: Answer | null = null;
  while (Date.now() < deadline) {
    last = await probe();
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the change was not served within ${timeoutMs} ms; last answer: ${JSON.stringify(last)}`);
}

async function startDev(project: string): Promise<{ dev: DevServer; lines: string[] }> {
  const lines: string[] = [];
  const dev = await DevServer.start({
    target: { mode: "project", dir: project },
    port: 0,
    say: (line) => lines.push(line),
    logSink: () => undefined,
  });
  return { dev, lines };
}

describe("svc dev", () => {
  test("serves each edit of a query, a page and svc.toml in turn, on the same connection, keeping the data", async () => {
    const project = writeProject();
    cleanup.push(project);
    const { dev, lines } = await startDev(project);
    const http = client(dev.url);
    try {
      expect(dev.url).toMatch(/^http:\/\/localhost:\d+$/);
      const added = await http.fetch("/api/notes:add_note", { method: "POST", body: { body: "kept" } });
      expect(added.status).toBe(200);
      const first = await http.fetch("/api/notes:list_notes");
      expect(JSON.parse(first.body)).toMatchObject({ ok: true, data: [{ body: "kept", tag: "v1" }] });

      edit(project, "modules/notes/notes.svc", "'v1' AS tag", "'v2' AS tag");
      const second = await until(
        () => http.fetch("/api/notes:list_notes"),
        (a) => a.body.includes('"tag":"v2"'),
      );
      expect(JSON.parse(second.body).data).toEqual([expect.objectContaining({ body: "kept", tag: "v2" })]);
      expect(second.localPort).toBe(first.localPort);

      edit(project, "app/notes/page.html", "<h1>Notes v1</h1>", "<h1>Notes v2</h1>");
      const page = await until(
        () => http.fetch("/notes", { accept: "text/html" }),
        (a) => a.body.includes("Notes v2"),
      );
      expect(page.status).toBe(200);
      expect(page.body).toContain("<li>kept</li>");
      // The live-reload script goes into every HTML page, before </body>.
      expect(page.body).toMatch(/<script src="\/__svc\/dev\/client\.js"><\/script><\/body>/);
      expect(page.localPort).toBe(first.localPort);

      edit(project, "svc.toml", 'version = "1.0.0"', 'version = "1.1.0"');
      const health = await until(
        () => http.fetch("/health"),
        (a) => a.body.includes('"version":"1.1.0"'),
      );
      expect(health.localPort).toBe(first.localPort);
      expect(lines.filter((l) => l.startsWith("svc dev: reloaded")).length).toBeGreaterThanOrEqual(3);
      expect(dev.generation).toBeGreaterThanOrEqual(4);
    } finally {
      http.close();
      await dev.close();
    }
  }, 120_000);

  test("serves /openapi.json and /_svc/docs, and the description follows an edit", async () => {
    const project = writeProject();
    cleanup.push(project);
    const { dev } = await startDev(project);
    const http = client(dev.url);
    try {
      const first = await http.fetch("/openapi.json");
      expect(first.status).toBe(200);
      expect(Object.keys(JSON.parse(first.body).paths)).toContain("/api/notes:list_notes");
      expect((await http.fetch("/_svc/docs", { accept: "text/html" })).status).toBe(200);
      edit(project, "modules/notes/notes.svc", "query list_notes()", "query note_count() one {\n  SELECT count(*) AS n FROM note\n}\n\nquery list_notes()");
      const next = await until(
        () => http.fetch("/openapi.json"),
        (a) => a.body.includes("/api/notes:note_count"),
      );
      expect(Object.keys(JSON.parse(next.body).paths)).toContain("/api/notes:list_notes");
    } finally {
      http.close();
      await dev.close();
    }
  }, 120_000);

  test("a build error keeps the last good version: pages get the overlay, API calls a 500 naming the diagnostic", async () => {
    const project = writeProject();
    cleanup.push(project);
    const { dev, lines } = await startDev(project);
    const http = client(dev.url);
    const events = new AbortController();
    try {
      const stream = await fetch(`${dev.url}/__svc/dev/events`, { signal: events.signal });
      expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const reader = stream.body!.getReader();
      let received = "";
      const reloadSeen = (async () => {
        while (!received.includes("event: reload")) {
          const { value, done } = await reader.read();
          if (done) break;
          received += Buffer.from(value).toString();
        }
        return received;
      })();
      const script = await http.fetch("/__svc/dev/client.js");
      expect(script.body).toContain("EventSource");

      edit(project, "modules/notes/notes.svc", "SELECT id, body", "SELEC id, body");
      const broken = await until(
        () => http.fetch("/api/notes:list_notes"),
        (a) => a.status === 500,
      );
      const envelope = JSON.parse(broken.body) as {
        ok: boolean;
        error: string;
        diagnostics: { code: string; line: number }[];
      };
      expect(envelope.ok).toBe(false);
      expect(envelope.error).toMatch(/SVC\d{4} modules\/notes\/notes\.svc:9:3/);
      expect(envelope.diagnostics[0]).toMatchObject({ file: "modules/notes/notes.svc", line: 9, column: 3 });
      expect(await reloadSeen).toContain("event: reload");

      const page = await http.fetch("/notes", { accept: "text/html" });
      expect(page.status).toBe(200);
      expect(page.body).toContain("<h1>Notes v1</h1>");
      expect(page.body).toContain('id="svc-dev-overlay"');
      expect(page.body).toContain("modules/notes/notes.svc:9:3");
      expect(page.body).toContain("SELEC id");
      expect(lines.join("\n")).toContain("still serving the last good version");
      // public/ files still come from the last good version.
      expect((await http.fetch("/hello.txt")).body).toBe("hello\n");

      edit(project, "modules/notes/notes.svc", "SELEC id, body", "SELECT id, body");
      await until(
        () => http.fetch("/api/notes:list_notes"),
        (a) => a.status === 200,
      );
      const fixed = await http.fetch("/notes", { accept: "text/html" });
      expect(fixed.body).not.toContain("svc-dev-overlay");
      expect(dev.error).toBeNull();
    } finally {
      events.abort();
      http.close();
      await dev.close();
    }
  }, 120_000);

  test("an additive schema change keeps the in-memory data; a destructive one resets it and says so", async () => {
    const project = writeProject();
    cleanup.push(project);
    const { dev, lines } = await startDev(project);
    const http = client(dev.url);
    try {
      await http.fetch("/api/notes:add_note", { method: "POST", body: { body: "survives" } });
      edit(project, "modules/notes/notes.svc", "  body: text\n}", "  body: text\n  mood: text?\n}");
      edit(project, "modules/notes/notes.svc", "SELECT id, body,", "SELECT id, body, mood,");
      const widened = await until(
        () => http.fetch("/api/notes:list_notes"),
        (a) => a.body.includes('"mood"'),
      );
      expect(JSON.parse(widened.body).data).toEqual([expect.objectContaining({ body: "survives", mood: null })]);
      expect(lines.join("\n")).not.toContain("reset");

      edit(project, "modules/notes/notes.svc", "  mood: text?\n", "  mood: int?\n");
      edit(project, "modules/notes/notes.svc", "SELECT id, body, mood,", "SELECT id, body,");
      const emptied = await until(
        () => http.fetch("/api/notes:list_notes"),
        (a) => a.body.includes('"data":[]'),
      );
      expect(emptied.status).toBe(200);
      expect(lines.join("\n")).toMatch(/not additive; the in-memory data was reset/);
    } finally {
      http.close();
      await dev.close();
    }
  }, 120_000);

  test("the svc dev command prints its address for --port 0 and serves the project", async () => {
    const project = writeProject();
    cleanup.push(project);
    const cli = fileURLToPath(new URL("../../compiler/cli/svc.js", import.meta.url));
    const { child, match } = await startChild(
      [cli, "dev", project, "--port", "0"],
      project,
      /serving (http:\/\/localhost:\d+)/,
    );
    try {
      const health = await fetch(`${match[1]}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok", version: "1.0.0" });
    } finally {
      await child.stop();
    }
    expect(child.output()).toContain("svc dev: stopping");
    expect(child.process.exitCode).toBe(0);
  }, 60_000);
});
