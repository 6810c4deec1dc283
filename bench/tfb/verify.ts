// A TFB verifier: checks a server's six test types the way TechEmpower's toolset does before
// it benchmarks a framework (toolset/test_types/verifications.py and each test type's verify;
// written again here from those rules), and reports pass, warn or fail per test type. Where it
// is stricter than TFB, it says so in the finding. See bench/README.md ("TFB").
//   node build/bench/tfb/verify.js http://127.0.0.1:8080 [--db 'postgres://…?schema=NAME'] [--date-wait-ms 3000]
import { request } from "node:http";
import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { fortunesDifference } from "./fortune-html.js";

export const TEST_TYPES = ["json", "db", "queries", "fortunes", "updates", "plaintext"] as const;
export type TestType = (typeof TEST_TYPES)[number];
export type Verdict = "pass" | "warn" | "fail";

export interface Finding {
  level: "warn" | "fail";
  url: string;
  message: string;
}

export interface TestResult {
  test: TestType;
  verdict: Verdict;
  findings: Finding[];
}

/** The paths TFB's benchmark_config.json would name; /queries and /updates end where `queries` goes. */
export const TFB_PATHS: Record<TestType, string> = {
  json: "/json",
  db: "/db",
  queries: "/queries?queries=",
  fortunes: "/fortunes",
  updates: "/updates?queries=",
  plaintext: "/plaintext",
};

export interface VerifyOptions {
  paths?: Partial<Record<TestType, string>>;
  tests?: readonly TestType[];
  /**
   * Reads the whole world table, outside the server (id → randomNumber). Without it /db's
   * numbers are not compared with the database, and /updates fails: its writes cannot be seen.
   */
  readWorld?: () => Promise<Map<number, number>>;
  /**
   * How long to wait before asking again, to see that Date is not a cached constant: TFB waits
   * 3 s; anything over 1 s tells (Date has whole seconds). 0 skips that check.
   */
  dateWaitMs?: number;
  /** Per request (default 30 s): a server that does not answer fails, never hangs the verifier. */
  timeoutMs?: number;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One GET on a connection of its own; the body read whole. */
export function get(url: string, timeoutMs = 30_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { accept: "*/*" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end();
  });
}

const CONTENT_TYPES = {
  json: /^application\/json(; ?charset=(UTF|utf)-8)?$/,
  html: /^text\/html; ?charset=(UTF|utf)-8$/,
  plaintext: /^text\/plain(; ?charset=(UTF|utf)-8)?$/,
} as const;
type Kind = keyof typeof CONTENT_TYPES;
const IMF_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const header = (a: Answer, name: string): string | undefined => {
  const v = a.headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
};

class Checker {
  readonly findings: Finding[] = [];
  constructor(
    readonly base: string,
    readonly options: VerifyOptions,
  ) {}

  fail(url: string, message: string): void {
    this.findings.push({ level: "fail", url, message });
  }

  warn(url: string, message: string): void {
    this.findings.push({ level: "warn", url, message });
  }

  add(level: "warn" | "fail", url: string, message: string): void {
    this.findings.push({ level, url, message });
  }

  async fetch(url: string): Promise<Answer | null> {
    try {
      return await get(url, this.options.timeoutMs);
    } catch (error) {
      this.fail(url, `no answer: ${(error as Error).message}`);
      return null;
    }
  }

  /** Status 200, the required headers, the size header, Content-Type for `kind`, and (once, `recheck`) a fresh Date. */
  async headers(url: string, a: Answer, kind: Kind, recheck: boolean): Promise<void> {
    if (a.status !== 200) this.fail(url, `status ${a.status}, expected 200`);
    for (const name of ["Server", "Date", "Content-Type"]) {
      if (header(a, name.toLowerCase()) === undefined) this.fail(url, `required response header missing: ${name}`);
    }
    const length = header(a, "content-length");
    if (length === undefined && header(a, "transfer-encoding") === undefined) {
      this.fail(url, 'required response size header missing: include either "Content-Length" or "Transfer-Encoding"');
    }
    const date = header(a, "date");
    if (date !== undefined && !IMF_DATE.test(date)) this.warn(url, `Date header "${date}" is not like "Sun, 06 Nov 1994 08:49:37 GMT"`);
    const type = header(a, "content-type");
    if (type !== undefined && !CONTENT_TYPES[kind].test(type)) {
      this.fail(url, `Content-Type is "${type}", which does not match ${CONTENT_TYPES[kind]}`);
    }
    const wait = this.options.dateWaitMs ?? 3000;
    if (recheck && wait > 0 && date !== undefined) {
      await sleep(wait);
      const again = await this.fetch(url);
      if (again && header(again, "date") === date) {
        this.fail(url, `Date is cached: "${date}" on two requests ${wait} ms apart`);
      }
    }
  }

  /** The body as JSON; null (after a failure) when it is empty or not JSON. */
  json(url: string, a: Answer, level: "warn" | "fail" = "fail"): unknown {
    if (a.body.length === 0) {
      this.add(level, url, "empty response");
      return null;
    }
    try {
      return JSON.parse(a.body.toString("utf8"));
    } catch (error) {
      this.add(level, url, `invalid JSON: ${(error as Error).message}`);
      return null;
    }
  }

  /** `{"id": n, "randomNumber": n}`: keys compared without case, as TFB does; values must be JSON integers. */
  world(url: string, value: unknown, level: "warn" | "fail", worldTable?: Map<number, number>): boolean {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.add(level, url, `expected a JSON object, got ${JSON.stringify(value)?.slice(0, 40)}`);
      return false;
    }
    const o = Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toLowerCase(), v]));
    let ok = true;
    for (const key of ["id", "randomnumber"]) {
      if (!(key in o)) {
        this.add(level, url, `the object has no key ${key === "id" ? "id" : "randomNumber"}`);
        ok = false;
      }
    }
    const extra = Object.keys(o).filter((k) => k !== "id" && k !== "randomnumber");
    if (extra.length > 0) this.warn(url, `extra key(s) in the world object: ${extra.join(", ")}`);
    if (!ok) return false;
    for (const [key, v] of [
      ["id", o.id],
      ["randomNumber", o.randomnumber],
    ] as const) {
      // TFB takes anything Python's int() takes ("12", 12.5); a number that is an integer is what a JSON client wants.
      if (typeof v !== "number" || !Number.isInteger(v)) {
        this.add(level, url, `${key} is ${JSON.stringify(v)}, not an integer (stricter than TFB, which takes "12" or 12.5)`);
        ok = false;
      }
    }
    if (!ok) return false;
    const id = o.id as number;
    const n = o.randomnumber as number;
    if (id < 1 || id > 10_000) this.warn(url, `id should be between 1 and 10,000: ${id}`);
    if (n > 10_000 || n < 1) this.warn(url, `randomNumber should be between 1 and 10,000: ${n}`);
    if (worldTable && worldTable.has(id) && worldTable.get(id) !== n) {
      this.add(level, url, `world ${id} has randomNumber ${worldTable.get(id)} in the database, answered ${n}`);
      return false;
    }
    return true;
  }

  /** A JSON array of `expected` world objects (TFB looks at the first five bad ones). */
  worldList(url: string, a: Answer, expected: number, level: "warn" | "fail", worldTable?: Map<number, number>): unknown[] | null {
    const value = this.json(url, a, level);
    if (value === null) return null;
    if (!Array.isArray(value)) {
      this.add(level, url, "the top-level JSON is an object, not an array");
      this.world(url, value, level, worldTable);
      return null;
    }
    if (value.length !== expected) this.add(level, url, `JSON array of ${value.length} objects, expected ${expected}`);
    let bad = 0;
    for (const item of value) {
      if (bad >= 5) break;
      if (!this.world(url, item, level, worldTable)) bad++;
    }
    return value;
  }
}

/** The `queries` cases TFB asks /queries and /updates, with the level of a wrong answer to each. */
export const QUERY_CASES: readonly [string, "warn" | "fail", number][] = [
  ["2", "fail", 2],
  ["0", "fail", 1],
  ["foo", "fail", 1],
  ["501", "warn", 500],
  ["", "fail", 1],
];

async function verifyOne(test: TestType, c: Checker): Promise<void> {
  const url = c.base + (c.options.paths?.[test] ?? TFB_PATHS[test]);
  switch (test) {
    case "json": {
      const a = await c.fetch(url);
      if (!a) return;
      const value = c.json(url, a);
      if (value === null) return;
      if (typeof value !== "object" || Array.isArray(value) || Object.values(value).some((v) => typeof v !== "string")) {
        return c.fail(url, "not a JSON object of strings");
      }
      const o = Object.fromEntries(Object.entries(value as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]));
      if (!("message" in o)) return c.fail(url, "missing required key 'message'");
      if (Object.keys(o).length > 1) c.warn(url, `too many JSON key/value pairs, consider removing: ${Object.keys(o).filter((k) => k !== "message").join(", ")}`);
      if (o.message !== "hello, world!") return c.fail(url, `expected message 'hello, world!', got '${o.message}'`);
      if (a.body.length > 27) c.warn(url, `${a.body.length - 27} more bytes than {"message":"Hello, World!"}`);
      return c.headers(url, a, "json", true);
    }
    case "db": {
      const before = c.options.readWorld ? await c.options.readWorld() : undefined;
      const a = await c.fetch(url);
      if (!a) return;
      let value = c.json(url, a);
      if (value === null) return;
      if (Array.isArray(value)) {
        c.warn(url, "the answer is a JSON array, expected an object");
        value = value[0];
      }
      c.world(url, value, "fail", before);
      return c.headers(url, a, "json", true);
    }
    case "queries":
    case "updates": {
      const readWorld = c.options.readWorld;
      if (test === "updates" && !readWorld) c.fail(url, "updates cannot be checked without the database: give the verifier readWorld (--db)");
      const before = readWorld ? await readWorld() : undefined;
      let first = true;
      for (const [q, level, expected] of QUERY_CASES) {
        const caseUrl = url + q;
        const a = await c.fetch(caseUrl);
        if (!a) continue;
        // /queries reads only: its numbers must be the database's. /updates' are checked after it.
        const rows = c.worldList(caseUrl, a, expected, level, test === "queries" ? before : undefined);
        await c.headers(caseUrl, a, "json", first);
        first = false;
        if (test === "updates" && q === "501" && rows && readWorld && before) await persisted(c, caseUrl, rows, before, await readWorld());
      }
      return;
    }
    case "fortunes": {
      const a = await c.fetch(url);
      if (!a) return;
      if (a.body.length === 0) return c.fail(url, "empty response");
      const difference = fortunesDifference(a.body.toString("utf8"));
      if (difference !== null) return c.fail(url, `not TFB's fortunes page: ${difference}`);
      return c.headers(url, a, "html", true);
    }
    case "plaintext": {
      const a = await c.fetch(url);
      if (!a) return;
      if (a.body.length === 0) return c.fail(url, "empty response");
      const body = a.body.toString("utf8");
      if (!body.toLowerCase().includes("hello, world!")) return c.fail(url, "could not find 'Hello, World!' in the response");
      if (a.body.length > 13) c.warn(url, `${a.body.length - 13} more bytes than required`);
      else if (body !== "Hello, World!") c.warn(url, `the body is "${body}", not "Hello, World!"`);
      return c.headers(url, a, "plaintext", true);
    }
  }
}

/**
 * TFB's update check: of the 500 rows an /updates?queries=501 answered, at least 90 % must have
 * changed in the database (95 % without a warning; a new number may equal the old one). And,
 * stricter than TFB, each answered row's number must be the one the database now holds.
 */
async function persisted(c: Checker, url: string, rows: unknown[], before: Map<number, number>, after: Map<number, number>): Promise<void> {
  let changed = 0;
  for (const [id, n] of after) if (before.get(id) !== n) changed++;
  if (changed === 0) c.fail(url, "no row was updated in the database");
  else if (changed <= 500 * 0.9) c.fail(url, `only ${changed} rows were updated in the database out of roughly 500 expected`);
  else if (changed <= 500 * 0.95) c.warn(url, `only ${changed} rows were updated in the database out of roughly 500 expected`);
  const answered = new Map<number, Set<number>>();
  for (const row of rows as { id?: unknown; randomNumber?: unknown }[]) {
    if (typeof row?.id !== "number" || typeof row.randomNumber !== "number") continue;
    if (!answered.has(row.id)) answered.set(row.id, new Set());
    answered.get(row.id)!.add(row.randomNumber);
  }
  const wrong = [...answered].filter(([id, ns]) => !ns.has(after.get(id) ?? Number.NaN));
  if (wrong.length > 0) {
    const [id, ns] = wrong[0];
    c.fail(url, `${wrong.length} answered rows are not what the database holds (world ${id}: answered ${[...ns].join(" or ")}, stored ${after.get(id)})`);
  }
}

/** Verifies each test type in turn (default: all six) against `baseUrl` (no trailing slash). */
export async function verifyTfb(baseUrl: string, options: VerifyOptions = {}): Promise<TestResult[]> {
  const results: TestResult[] = [];
  for (const test of options.tests ?? TEST_TYPES) {
    const c = new Checker(baseUrl.replace(/\/$/, ""), options);
    try {
      await verifyOne(test, c);
    } catch (error) {
      c.fail(baseUrl, `the verifier stopped: ${(error as Error).message}`);
    }
    const verdict: Verdict = c.findings.some((f) => f.level === "fail") ? "fail" : c.findings.length > 0 ? "warn" : "pass";
    results.push({ test, verdict, findings: c.findings });
  }
  return results;
}

/** One line per test type, then its findings indented. */
export function formatResults(results: readonly TestResult[]): string {
  return results
    .map((r) => [`${r.verdict.toUpperCase().padEnd(4)}  ${r.test}`, ...r.findings.map((f) => `      ${f.level}: ${f.message} (${f.url})`)].join("\n"))
    .join("\n");
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { db: { type: "string" }, "date-wait-ms": { type: "string" }, tests: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) {
    console.error("usage: node build/bench/tfb/verify.js BASE_URL [--db 'postgres://…?schema=NAME'] [--date-wait-ms MS] [--tests json,db,…]");
    process.exit(2);
  }
  const { readWorld } = await import("./data.js");
  const db = values.db;
  const tests = values.tests?.split(",").map((t) => {
    if (!(TEST_TYPES as readonly string[]).includes(t)) throw new Error(`unknown test type "${t}" (${TEST_TYPES.join(", ")})`);
    return t as TestType;
  });
  const results = await verifyTfb(positionals[0], {
    readWorld: db ? () => readWorld(db) : undefined,
    dateWaitMs: values["date-wait-ms"] === undefined ? undefined : Number(values["date-wait-ms"]),
    tests,
  });
  console.log(formatResults(results));
  process.exitCode = results.some((r) => r.verdict === "fail") ? 1 : 0;
}

if (process.argv[1]?.endsWith("/tfb/verify.js")) {
  main().catch((error: Error) => {
    console.error(`tfb verify: ${error.message}`);
    process.exit(2);
  });
}
