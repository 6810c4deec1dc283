// A seeded fuzzer against the task tracker (issue 15 part 11): valid requests to every
// kind of endpoint (actions, queries, declared routes, route files, pages, static files, the
// GitHub webhook signed over its mutated body) are mutated at the JSON level (sent with
// fetch) or at the byte level (sent over a raw socket, see fuzz-cases.ts). Whatever comes
// in: never a 5xx other than 503, never a stack trace in an answer, never a connection left
// without an answer or a close past the read timeout, no "internal error" in the log, and
// the server answers /health afterwards.
//
// SVC_FUZZ_SEED and SVC_FUZZ_COUNT change the seed and the number of cases; a failure
// prints the seed, the case number and its bytes.

import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { EXAMPLE_ENV, removeDir, startServer, type TestServer } from "../support/server.js";
import { fuzzCase, type FuzzContext, type FuzzRequest } from "./fuzz-cases.js";
import { buildServer, expectAlive, logLines } from "./support.js";

const SEED = Number(process.env.SVC_FUZZ_SEED ?? 20_261_124);
const COUNT = Number(process.env.SVC_FUZZ_COUNT ?? 1500);
/** Cases stop being started after this, whatever COUNT says, so the test stays short. */
const TIME_BUDGET_MS = 12_000;
const READ_TIMEOUT_MS = 1000;
/** Past this, a connection with neither an answer nor a close is hanging. */
const WAIT_MS = READ_TIMEOUT_MS + 2500;
const IN_FLIGHT = 12;
const STACK = /\n\s+at |node:internal|\.[cm]?[jt]s:\d+:\d+/;

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await buildServer();
  server = await startServer(dir, [
    "--db",
    join(dir, "fuzz.db"),
    "--read-timeout",
    String(READ_TIMEOUT_MS),
    "--max-body-size",
    String(1 << 20),
  ]);
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

interface Outcome {
  /** The last final status; 0 when the server closed without one, -1 when not all answers came in time. */
  status: number;
  /** Every final status in the answer (a pipelined case has two). */
  all: number[];
  text: string;
}

/** Sends raw bytes (in `pieces`, if any); done at the `responses`th complete response, at the close, or after WAIT_MS. */
function sendRaw(port: number, bytes: Buffer, responses: number, pieces: number[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let finished = false;
    const finish = (closed: boolean): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      const all = finalStatuses(text);
      const status = !closed && all.length < responses ? -1 : (all.at(-1) ?? 0);
      resolve({ status, all, text });
    };
    const timer = setTimeout(() => finish(false), WAIT_MS);
    socket.on("data", (d: Buffer) => {
      chunks.push(d);
      if (complete(Buffer.concat(chunks).toString("latin1"), responses)) finish(true);
    });
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("connect", async () => {
      let at = 0;
      for (const size of pieces) {
        if (finished) return;
        socket.write(bytes.subarray(at, (at += size)));
        await new Promise((next) => setImmediate(next));
      }
      if (!finished && at < bytes.length) socket.write(bytes.subarray(at));
    });
  });
}

/** The final (non-1xx) statuses in `text`, in order. */
function finalStatuses(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])).filter((status) => status >= 200);
}

/** Whether `count` whole final responses (Content-Length framed, or without a body) are in `text`. */
function complete(text: string, count: number): boolean {
  let at = 0;
  for (;;) {
    const headEnd = text.indexOf("\r\n\r\n", at);
    if (headEnd === -1) return false;
    const head = text.slice(at, headEnd);
    const status = Number(head.slice(9, 12));
    if (status >= 100 && status < 200) {
      at = headEnd + 4;
      continue;
    }
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (length === null && /\r\ntransfer-encoding:/i.test(head)) return false;
    const end = headEnd + 4 + Number(length?.[1] ?? 0);
    if (text.length < end) return false;
    if (--count === 0) return true;
    at = end;
  }
}

async function sendFetch(port: number, req: FuzzRequest): Promise<Outcome | null> {
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${port}${req.path}`, {
      method: req.method,
      headers: req.headers,
      body: req.body.length === 0 ? undefined : req.body,
      signal: AbortSignal.timeout(WAIT_MS),
      redirect: "manual",
    });
  } catch (err) {
    const name = (err as Error).name;
    if (name === "TimeoutError") return { status: -1, all: [], text: "" };
    // fetch refused to send it (a header value outside Latin-1, say): the raw socket will.
    if (err instanceof TypeError && !/fetch failed/.test(err.message)) return null;
    return { status: 0, all: [], text: String((err as Error).cause ?? err) };
  }
  return { status: res.status, all: [res.status], text: await res.text() };
}

test(`fuzzed requests (seed ${SEED}): never a 5xx but 503, never a stack trace, never a hang; the server lives`, async () => {
  const ctx: FuzzContext = { ids: [], webhookSecret: EXAMPLE_ENV.GITHUB_WEBHOOK_SECRET! };
  for (let i = 0; i < 5; i++) {
    const r = await call(`${server.url}/api/task_tracker:create_task`, { json: { title: `seed ${i}` } });
    ctx.ids.push(r.json.data.id);
  }
  const byStatus = new Map<string, number>();
  const transports = { raw: 0, fetch: 0 };
  const failures: string[] = [];
  const started = Date.now();
  let next = 0;

  const runOne = async (index: number): Promise<void> => {
    const { req, bytes, responses, pieces } = fuzzCase(SEED, index, ctx);
    let outcome = req.transport === "fetch" ? await sendFetch(server.port, req) : null;
    if (outcome === null) {
      req.transport = "raw";
      outcome = await sendRaw(server.port, bytes, responses, pieces);
    }
    transports[req.transport]++;
    const key = outcome.status === -1 ? "hang" : outcome.status === 0 ? "closed" : String(outcome.status);
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
    const why =
      outcome.status === -1
        ? `no answer and no close within ${WAIT_MS} ms`
        : outcome.all.some((status) => status >= 500 && status !== 503)
          ? `answered ${outcome.all.join(", ")}`
          : STACK.test(outcome.text)
            ? "a stack trace in the answer"
            : null;
    if (why !== null) {
      failures.push(
        `SVC_FUZZ_SEED=${SEED} case ${index} (${req.transport}, ${req.label}): ${why}\n` +
          `  sent: ${JSON.stringify(bytes.toString("latin1").slice(0, 1500))}\n` +
          `  got:  ${JSON.stringify(outcome.text.slice(0, 600))}`,
      );
    }
  };

  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < COUNT && Date.now() - started < TIME_BUDGET_MS) await runOne(next++);
    }),
  );

  const sent = transports.raw + transports.fetch;
  const table = [...byStatus.entries()].sort().map(([k, n]) => `${k}: ${n}`).join(", ");
  console.log(`fuzz seed ${SEED}: ${sent} requests (raw ${transports.raw}, fetch ${transports.fetch}); ${table}`);

  // The server said nothing of a 500 it may have sent on a connection the client gave up on.
  const internal = logLines(server).filter((l) => l.msg === "internal error");
  for (const line of internal.slice(0, 5)) failures.push(`SVC_FUZZ_SEED=${SEED}: logged ${JSON.stringify(line).slice(0, 1500)}`);
  if (failures.length > 0) throw new Error(`${failures.length} fuzz failure(s):\n${failures.slice(0, 10).join("\n")}`);

  expect(sent).toBeGreaterThan(0);
  expect((await call(`${server.url}/health`)).status).toBe(200);
  await expectAlive(server);
  expect(server.process.exitCode).toBeNull();
}, 60_000);
