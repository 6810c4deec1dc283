// The TFB verifier (bench/tfb/verify.ts) against a small server written here: first as TFB's
// rules want it (every test type passes), then broken one way at a time (each check fails, or
// warns where TFB only warns). The server writes its answers by hand on a raw socket, so a
// test can take away any header or give any status, length or bytes.
import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import { createServer, type Server, type Socket } from "node:net";
import { FORTUNES, worldNumbers } from "../../../bench/tfb/data.js";
import { expectedFortunes, normalizeFortunes } from "../../../bench/tfb/fortune-html.js";
import { escapeHtml, fortunesHtml, queriesParam } from "../../../bench/tfb/rules.js";
import { type TestResult, type TestType, type VerifyOptions, verifyTfb } from "../../../bench/tfb/verify.js";

interface Reply {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

type Tweak = (path: string, query: URLSearchParams, reply: Reply) => Reply | null;

const world = new Map<number, number>();
const reset = (): void => {
  world.clear();
  worldNumbers().forEach((n, i) => world.set(i + 1, n));
};
const readWorld = async (): Promise<Map<number, number>> => new Map(world);
let tweak: Tweak = (_p, _q, r) => r;
let persist = true;

const random = (): number => 1 + Math.floor(Math.random() * 10_000);
const reply = (type: string, body: string | Buffer): Reply => {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  return {
    status: 200,
    headers: [
      ["Server", "tfb-test"],
      ["Date", new Date().toUTCString()],
      ["Content-Type", type],
      ["Content-Length", String(bytes.length)],
    ],
    body: bytes,
  };
};
const json = (value: unknown): Reply => reply("application/json", JSON.stringify(value));

/** The answer TFB's rules ask for. */
function correct(path: string, query: URLSearchParams): Reply {
  switch (path) {
    case "/json":
      return json({ message: "Hello, World!" });
    case "/plaintext":
      return reply("text/plain", "Hello, World!");
    case "/db": {
      const id = random();
      return json({ id, randomNumber: world.get(id) });
    }
    case "/queries":
      return json(Array.from({ length: queriesParam(query.get("queries")) }, () => random()).map((id) => ({ id, randomNumber: world.get(id) })));
    case "/updates": {
      const rows = Array.from({ length: queriesParam(query.get("queries")) }, () => ({ id: random(), randomNumber: random() }));
      if (persist) for (const r of rows) world.set(r.id, r.randomNumber);
      for (const r of rows) r.randomNumber = persist ? world.get(r.id)! : r.randomNumber;
      return json(rows);
    }
    case "/fortunes":
      return reply("text/html; charset=utf-8", fortunesHtml(FORTUNES));
    default:
      return reply("text/plain", "not found");
  }
}

function write(socket: Socket, r: Reply): void {
  const head = [`HTTP/1.1 ${r.status} X`, ...r.headers.map(([k, v]) => `${k}: ${v}`), "Connection: close", "", ""].join("\r\n");
  socket.end(Buffer.concat([Buffer.from(head, "latin1"), r.body]));
}

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", (chunk) => {
      const target = /^GET (\S+)/.exec(chunk.toString("latin1"))?.[1] ?? "/";
      const url = new URL(target, "http://x");
      const r = tweak(url.pathname, url.searchParams, correct(url.pathname, url.searchParams));
      if (r !== null) write(socket, r);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** One test type, with `tweak` in force and no Date re-check unless asked. */
async function verify(test: TestType, t: Tweak, options: VerifyOptions = {}): Promise<TestResult> {
  reset();
  persist = true;
  tweak = t;
  try {
    const [result] = await verifyTfb(base, { readWorld, dateWaitMs: 0, timeoutMs: 2000, ...options, tests: [test] });
    return result;
  } finally {
    tweak = (_p, _q, r) => r;
  }
}

const on = (path: string, change: (r: Reply, q: URLSearchParams) => Reply | null): Tweak => (p, q, r) => (p === path ? change(r, q) : r);
const withHeaders = (r: Reply, edit: (h: [string, string][]) => [string, string][]): Reply => ({ ...r, headers: edit(r.headers) });
const without = (name: string) => (r: Reply) => withHeaders(r, (h) => h.filter(([k]) => k !== name));
const setHeader = (name: string, value: string) => (r: Reply) => withHeaders(r, (h) => h.map(([k, v]) => [k, k === name ? value : v]));
const body = (text: string | Buffer) => (r: Reply) => {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  return setHeader("Content-Length", String(bytes.length))({ ...r, body: bytes });
};
const messages = (r: TestResult): string => r.findings.map((f) => `${f.level}: ${f.message}`).join("\n");

describe("a server as TFB's rules want it", () => {
  test("passes all six test types, the Date re-check included", async () => {
    reset();
    const results = await verifyTfb(base, { readWorld, dateWaitMs: 1100 });
    expect(results.map((r) => [r.test, r.verdict, messages(r)])).toEqual(
      ["json", "db", "queries", "fortunes", "updates", "plaintext"].map((t) => [t, "pass", ""]),
    );
  });

  test("the fortunes page's normal form forgives what TFB forgives", async () => {
    const other = `<!DOCTYPE HTML>\n<HTML><head><meta charset="utf-8"><title>Fortunes</title></head>
      <body><table><thead><tr><th>id</th><th>message</th></tr></thead><tbody>` +
      [...FORTUNES, { id: 0, message: "Additional fortune added at request time." }]
        .sort((a, b) => (a.message < b.message ? -1 : 1))
        .map((f) => `\n <tr class="row"><td>${f.id}</td><td>${f.message.replace(/</g, "&#60;").replace(/'/g, "&#x27;").replace(/"/g, "&#34;").replace(/—/g, "&mdash;")}</td></tr>`)
        .join("") +
      "</tbody></table></body></html>";
    expect(normalizeFortunes(other)).toBe(expectedFortunes());
    expect((await verify("fortunes", on("/fortunes", body(other)))).verdict).toBe("pass");
  });
});

describe("every check can fail", () => {
  test.each<[string, TestType, Tweak, "warn" | "fail", RegExp]>([
    ["json: another message", "json", on("/json", body('{"message":"Hello, world"}')), "fail", /expected message/],
    ["json: not JSON", "json", on("/json", body("Hello")), "fail", /invalid JSON/],
    ["json: an extra key", "json", on("/json", body('{"message":"Hello, World!","x":"y"}')), "warn", /too many JSON key/],
    ["json: no Server", "json", on("/json", without("Server")), "fail", /header missing: Server/],
    ["json: no Date", "json", on("/json", without("Date")), "fail", /header missing: Date/],
    ["json: no Content-Type", "json", on("/json", without("Content-Type")), "fail", /header missing: Content-Type/],
    ["json: text/json", "json", on("/json", setHeader("Content-Type", "text/json")), "fail", /Content-Type is "text\/json"/],
    ["json: no size header", "json", on("/json", without("Content-Length")), "fail", /size header missing/],
    // A length that is not the body's is an HTTP error the client reports (no check of the verifier's own).
    ["json: a wrong length", "json", on("/json", setHeader("Content-Length", "20")), "fail", /no answer: Parse Error/],
    ["json: a Date in another form", "json", on("/json", setHeader("Date", new Date().toISOString())), "warn", /Date header/],
    ["json: status 404", "json", on("/json", (r) => ({ ...r, status: 404 })), "fail", /status 404/],
    ["db: a string number", "db", on("/db", body('{"id":5,"randomNumber":"12"}')), "fail", /not an integer/],
    ["db: a key missing", "db", on("/db", body('{"id":5}')), "fail", /no key randomNumber/],
    ["db: an array", "db", on("/db", (r) => body(`[${r.body.toString()}]`)(r)), "warn", /JSON array/],
    ["db: an id out of range", "db", on("/db", body('{"id":0,"randomNumber":5}')), "warn", /id should be between/],
    ["db: not the database's number", "db", on("/db", (r) => {
      const o = JSON.parse(r.body.toString()) as { id: number; randomNumber: number };
      return body(JSON.stringify({ id: o.id, randomNumber: (o.randomNumber % 10_000) + 1 }))(r);
    }), "fail", /in the database, answered/],
    ["queries: 501 not clamped", "queries", on("/queries", (r, q) => (q.get("queries") === "501" ? body(JSON.stringify(Array.from({ length: 501 }, () => ({ id: 1, randomNumber: world.get(1) }))))(r) : r)), "warn", /501 objects, expected 500/],
    ["queries: 0 as 0", "queries", on("/queries", (r, q) => (q.get("queries") === "0" ? body("[]")(r) : r)), "fail", /0 objects, expected 1/],
    ["queries: foo refused", "queries", on("/queries", (r, q) => (q.get("queries") === "foo" ? { ...body("")(r), status: 400 } : r)), "fail", /empty response/],
    ["queries: an object", "queries", on("/queries", (r, q) => (q.get("queries") === "2" ? body(`{"id":1,"randomNumber":${world.get(1)}}`)(r) : r)), "fail", /not an array/],
    ["queries: a missing query", "queries", on("/queries", (r, q) => (q.get("queries") === "" ? null : r)), "fail", /no answer/],
    ["fortunes: no extra fortune", "fortunes", on("/fortunes", (r) => body(r.body.toString().replace(/<tr><td>0<\/td>.*?<\/tr>/, ""))(r)), "fail", /not TFB's fortunes page/],
    ["fortunes: sorted by id", "fortunes", on("/fortunes", body(fortunesHtml([...FORTUNES]).replace(/<tr><td>.*<\/tr>/, (rows) => rows.split("</tr>").filter(Boolean).sort().join("</tr>") + "</tr>"))), "fail", /not TFB's fortunes page/],
    ["fortunes: not escaped", "fortunes", on("/fortunes", (r) => body(r.body.toString().replace(escapeHtml(FORTUNES[10].message), FORTUNES[10].message))(r)), "fail", /not TFB's fortunes page/],
    ["fortunes: not UTF-8", "fortunes", on("/fortunes", (r) => body(Buffer.from(r.body.toString(), "latin1"))(r)), "fail", /not TFB's fortunes page/],
    ["fortunes: no charset", "fortunes", on("/fortunes", setHeader("Content-Type", "text/html")), "fail", /Content-Type is "text\/html"/],
    ["plaintext: another text", "plaintext", on("/plaintext", body("Hello")), "fail", /could not find/],
    ["plaintext: a newline more", "plaintext", on("/plaintext", body("Hello, World!\n")), "warn", /1 more bytes/],
    ["plaintext: as HTML", "plaintext", on("/plaintext", setHeader("Content-Type", "text/html")), "fail", /Content-Type/],
  ])("%s", async (_label, testType, t, verdict, message) => {
    const result = await verify(testType, t);
    expect(result.verdict).toBe(verdict);
    expect(messages(result)).toMatch(message);
  });

  test("a Date that never changes is a cached Date", async () => {
    const fixed = new Date(Date.now() - 60_000).toUTCString();
    const result = await verify("plaintext", on("/plaintext", setHeader("Date", fixed)), { dateWaitMs: 1100 });
    expect(result.verdict).toBe("fail");
    expect(messages(result)).toMatch(/Date is cached/);
  });

  test("updates that are answered but not written fail", async () => {
    reset();
    persist = false;
    tweak = (_p, _q, r) => r;
    const [result] = await verifyTfb(base, { readWorld, dateWaitMs: 0, tests: ["updates"] });
    expect(result.verdict).toBe("fail");
    expect(messages(result)).toMatch(/no row was updated/);
    persist = true;
  });

  test("updates written but answered with the old numbers fail", async () => {
    const result = await verify(
      "updates",
      on("/updates", (r) => {
        const rows = JSON.parse(r.body.toString()) as { id: number; randomNumber: number }[];
        return body(JSON.stringify(rows.map((row) => ({ id: row.id, randomNumber: (row.randomNumber % 10_000) + 1 }))))(r);
      }),
    );
    expect(result.verdict).toBe("fail");
    expect(messages(result)).toMatch(/answered rows are not what the database holds/);
  });

  test("updates cannot pass unseen: without the database they fail", async () => {
    const result = await verify("updates", (_p, _q, r) => r, { readWorld: undefined });
    expect(result.verdict).toBe("fail");
    expect(messages(result)).toMatch(/without the database/);
  });
});
