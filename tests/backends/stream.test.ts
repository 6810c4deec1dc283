// Streamed answers on PostgreSQL and MariaDB (docs/language.md §2.4 "Streamed answers"):
// the rows come through a cursor (postgres.js) or row by row off the connection (mysql2),
// the CSV and NDJSON are the same as on SQLite (tests/http/stream.test.ts), and a client that
// goes away mid-answer gives its connection back: with a pool of one, the next request is
// answered whole.

import { get } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const available = {
  postgres: await backendAvailable("postgres"),
  mysql: await backendAvailable("mysql"),
};

const ROWS = 20_000;
const PAD = "x".repeat(450);
const label = (n: number) => `row ${n}, ${PAD}`;
const id = (n: number) => `e${String(n).padStart(6, "0")}`;

/** 0 … ROWS-1 without generate_series or a recursive CTE: five tables of digits, joined. */
const DIGITS = "(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)";
const NUMBERS = `SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d AS n FROM ${DIGITS} a, ${DIGITS} b, ${DIGITS} c, ${DIGITS} e, ${DIGITS} f`;

const FILL = {
  postgres: `INSERT INTO entry (id, n, label, done, note) SELECT 'e' || lpad(n::text, 6, '0'), n, 'row ' || n || ', ' || repeat('x', 450), n % 2 = 1, CASE WHEN n = 7 THEN 'say "hi"' || chr(10) || 'there' END FROM (${NUMBERS}) g WHERE n < ${ROWS}`,
  mysql: `INSERT INTO entry (id, n, label, done, note) SELECT CONCAT('e', LPAD(n, 6, '0')), n, CONCAT('row ', n, ', ', REPEAT('x', 450)), n % 2 = 1, CASE WHEN n = 7 THEN CONCAT('say "hi"', CHAR(10), 'there') END FROM (${NUMBERS}) g WHERE n < ${ROWS}`,
};

let dir: string;
const servers: TestServer[] = [];
const namespaces: Namespace[] = [];

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "tests", "http", "projects", "stream") }, "stream-");
});

afterAll(async () => {
  for (const s of servers) expect(await s.stop()).toBe(0);
  for (const ns of namespaces) await ns.drop();
  removeDir(dir);
});

/** GETs `path`, each complete line handed to `line`. */
function lines(url: string, line: (text: string) => void): Promise<{ status: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let rest = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        rest += chunk;
        let nl: number;
        while ((nl = rest.indexOf("\n")) >= 0) {
          line(rest.slice(0, nl));
          rest = rest.slice(nl + 1);
        }
      });
      res.on("end", () => {
        if (rest !== "") line(rest);
        resolve({ status: res.statusCode!, type: res.headers["content-type"] });
      });
      res.on("error", reject);
    }).on("error", reject);
  });
}

/** Starts reading `url` and goes away after the first chunk. */
function abandon(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = get(url, (res) => {
      res.once("data", () => {
        req.destroy();
        resolve();
      });
    });
    req.on("error", (err) => ((err as NodeJS.ErrnoException).code === "ECONNRESET" ? resolve() : reject(err)));
  });
}

describe.each(["postgres", "mysql"] as const)("%s", (backend) => {
  const run = available[backend] ? test : test.skip;
  let server: TestServer;

  beforeAll(async () => {
    if (!available[backend]) return;
    const ns = await createNamespace(backend, "stream");
    namespaces.push(ns);
    // One connection: a stream that kept its connection would leave the next request none.
    server = await startServer(dir, ["--backend", backend, "--db", `${ns.url}${ns.url.includes("?") ? "&" : "?"}pool_size=1`]);
    servers.push(server);
    await ns.admin(FILL[backend]);
  });

  run("respond csv: every row, RFC 4180, in the order of the query", async () => {
    const got: string[] = [];
    const answer = await lines(`${server.url}/export.csv`, (l) => got.push(l));
    expect(answer.status).toBe(200);
    expect(answer.type).toBe("text/csv; charset=utf-8");
    const expected = ["id,n,label,done,note\r"];
    for (let n = 0; n < ROWS; n++) {
      if (n === 7) expected.push(`${id(n)},${n},"${label(n)}",true,"say ""hi""`, 'there"\r');
      else expected.push(`${id(n)},${n},"${label(n)}",${n % 2 === 1},\r`);
    }
    expect(got.length).toBe(expected.length);
    expect(got).toEqual(expected);
  });

  run("respond ndjson: booleans as true/false on both backends, null as null", async () => {
    const rows: unknown[] = [];
    const answer = await lines(`${server.url}/export/from/${ROWS - 3}`, (l) => rows.push(JSON.parse(l)));
    expect(answer.type).toBe("application/x-ndjson");
    expect(rows).toEqual([ROWS - 3, ROWS - 2, ROWS - 1].map((n) => ({ n, label: label(n), done: n % 2 === 1, note: null })));
    const seven: unknown[] = [];
    await lines(`${server.url}/export/from/7`, (l) => seven.length < 1 && seven.push(JSON.parse(l)));
    expect(seven).toEqual([{ n: 7, label: label(7), done: true, note: 'say "hi"\nthere' }]);
  });

  run("a client gone mid-answer gives the one connection back: the next requests are answered", async () => {
    for (let i = 0; i < 3; i++) await abandon(`${server.url}/export.csv`);
    const rows: unknown[] = [];
    await lines(`${server.url}/export/from/${ROWS - 10}`, (l) => rows.push(JSON.parse(l)));
    expect(rows).toHaveLength(10);
    const bad = await call(`${server.url}/export/from/x`);
    expect(bad.status).toBe(400);
    const none = await call(`${server.url}/export/from/${ROWS}/csv`);
    expect(none.text).toBe("n,label,done,note\r\n");
    expect(server.output.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  });
});
