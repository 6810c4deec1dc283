// Streamed answers over real sockets (docs/language.md §2.4 "Streamed answers"): a query's
// 200,000 rows as CSV and NDJSON, written as they are read, with the server's memory growing
// by much less than the body it sends; a client that goes away mid-answer; errors before the
// first row. The project is tests/http/projects/stream.

import { readFileSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import Database from "better-sqlite3";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

const PROJECT = join(repoRoot, "tests", "http", "projects", "stream");
const ROWS = 200_000;
/** Long enough that the whole body (some 100 MB) would show in the server's memory if it were built at once. */
const PAD = "x".repeat(450);

let dir: string;
let server: TestServer;

/** The label of row n: a comma, so every label is quoted in CSV. */
const label = (n: number) => `row ${n}, ${PAD}`;

beforeAll(async () => {
  dir = await buildTo({ mode: "project", dir: PROJECT });
  const file = join(dir, "s.db");
  // A heap of 40 MB could not hold the 100 MB body, so the answer goes through only if it is
  // never built whole. The young generation is held small too: V8 grows it up to 48 MB when
  // much is allocated, whatever stays alive, and the resident memory would show that.
  server = await startServer(dir, ["--db", file], { NODE_OPTIONS: "--max-semi-space-size=1 --max-old-space-size=40" });
  // The server made the table at start; the rows go in from here, in one transaction.
  const db = new Database(file);
  const insert = db.prepare("INSERT INTO entry (id, n, label, done, note) VALUES (?, ?, ?, ?, ?)");
  db.transaction(() => {
    for (let n = 0; n < ROWS; n++) insert.run(`e${String(n).padStart(6, "0")}`, n, label(n), n % 2, n === 7 ? 'say "hi"\nthere' : null);
  })();
  db.close();
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  if (dir) removeDir(dir);
});

/** The server process's resident memory, and its peak so far (Linux /proc), in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/**
 * GETs `path` and hands each complete line to `line`, reading as slowly as the checks go
 * (the socket pauses while a chunk is handled). Resolves with the status, headers and byte count.
 */
function lines(path: string, line: (text: string, index: number) => void): Promise<{ status: number; type: string | undefined; bytes: number; count: number }> {
  return new Promise((resolve, reject) => {
    get(`${server.url}${path}`, (res) => {
      let rest = "";
      let bytes = 0;
      let count = 0;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        bytes += Buffer.byteLength(chunk);
        rest += chunk;
        let nl: number;
        while ((nl = rest.indexOf("\n")) >= 0) {
          line(rest.slice(0, nl), count++);
          rest = rest.slice(nl + 1);
        }
      });
      res.on("end", () => {
        if (rest !== "") line(rest, count++);
        resolve({ status: res.statusCode!, type: res.headers["content-type"], bytes, count });
      });
      res.on("error", reject);
    }).on("error", reject);
  });
}

describe("streamed answers on SQLite", () => {
  test("respond csv: 200,000 rows, RFC 4180, and the server's memory grows by far less than the body", async () => {
    const before = memoryOf(server.process.pid!);
    const problems: string[] = [];
    let quoted = "";
    let pendingQuote = false;
    const answer = await lines("/export.csv", (text, i) => {
      if (i === 0) {
        if (text !== "id,n,label,done,note\r") problems.push(`header ${text}`);
        return;
      }
      // Row 7's note holds a line break: its CSV record spans two lines.
      if (pendingQuote) {
        quoted += `\n${text}`;
        pendingQuote = false;
        return;
      }
      const n = i - 1 - (i > 9 ? 1 : 0);
      if (n === 7) {
        quoted = text;
        pendingQuote = true;
        return;
      }
      const expected = `e${String(n).padStart(6, "0")},${n},"${label(n)}",${n % 2 === 1},\r`;
      if (text !== expected && problems.length < 5) problems.push(`line ${i}: ${text.slice(0, 60)}`);
    });
    expect(problems).toEqual([]);
    expect(answer.status).toBe(200);
    expect(answer.type).toBe("text/csv; charset=utf-8");
    expect(quoted).toBe(`e000007,7,"${label(7)}",true,"say ""hi""\r\nthere"\r`.replace("\r\nthere", "\nthere"));
    // The header, 200,000 records, and the one record that spans two lines.
    expect(answer.count).toBe(ROWS + 2);
    const after = memoryOf(server.process.pid!);
    expect(answer.bytes).toBeGreaterThan(90_000_000);
    // Loosely (what V8 and the allocator keep varies): built whole, the body would add at least its own size.
    expect(after.peak - before.rss).toBeLessThan(answer.bytes / 2);
  });

  test("respond ndjson with a path parameter: one JSON object a line, from the row asked for", async () => {
    const rows: unknown[] = [];
    const answer = await lines("/export/from/199995", (text) => rows.push(JSON.parse(text)));
    expect(answer.status).toBe(200);
    expect(answer.type).toBe("application/x-ndjson");
    expect(rows).toEqual([199995, 199996, 199997, 199998, 199999].map((n) => ({ n, label: label(n), done: n % 2 === 1, note: null })));
  });

  test("no rows: the CSV header alone; an NDJSON answer with no lines", async () => {
    const csv = await call(`${server.url}/export/from/${ROWS}/csv`);
    expect(csv.status).toBe(200);
    expect(csv.text).toBe("n,label,done,note\r\n");
    const ndjson = await call(`${server.url}/export/from/${ROWS}`);
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers["content-type"]).toBe("application/x-ndjson");
    expect(ndjson.text).toBe("");
  });

  test("an error before the first row answers as any other: a bad argument is a 400 in the envelope", async () => {
    const r = await call(`${server.url}/export/from/not-a-number`);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ ok: false, error: 'argument "min" must be an integer' });
  });

  test("HEAD answers the head without the rows", async () => {
    const r = await call(`${server.url}/export.csv`, { method: "HEAD" });
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(r.headers["content-disposition"]).toBe('attachment; filename="entries.csv"');
    expect(r.text).toBe("");
  });

  test("a client that goes away mid-answer stops the query; the server answers the next request whole", async () => {
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = get(`${server.url}/export.csv`, (res) => {
          res.once("data", () => {
            req.destroy();
            resolve();
          });
        });
        req.on("error", (err) => ((err as NodeJS.ErrnoException).code === "ECONNRESET" ? resolve() : reject(err)));
      });
    }
    const rows: unknown[] = [];
    const answer = await lines("/export/from/199990", (text) => rows.push(JSON.parse(text)));
    expect(answer.status).toBe(200);
    expect(rows).toHaveLength(10);
    // The server logged no error for the answers cut short.
    expect(server.output.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  });
});
