// A sign-in flood against examples/accounts, and what it does to everyone else (issue 30,
// part 2): the latency of a plain read (`GET /api/accounts:notes_of`, one indexed query) on
// a connection of its own, unloaded and then while FLOOD connections sign in without pause;
// the ratio of the two medians is the figure (at most 2 is the bar).
//
//   npm run bench:signin-flood                                   # SQLite, a file
//   npm run bench:signin-flood -- --backend postgres --db 'postgres://postgres@127.0.0.1:5432/test?schema=bench'
//                                  (a schema of its own, made first: CREATE SCHEMA bench; dropped after)
//
// The flood signs in with the right passwords of ACCOUNTS accounts, in turn: it measures the
// hashing itself, which a sign-in throttle must not stop. A throttle that counts failed
// attempts per account and per address leaves right passwords alone; one that counts every
// attempt must be raised for this run (or the flood spread over addresses with
// `--trust-proxy` and `X-Forwarded-For`), or the figure measures 429s instead of hashes.
// Environment: FLOOD (connections, default 8), SECONDS (flood length, default 15), ACCOUNTS (8).

import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { build, formatDiagnostics } from "../compiler/index.js";
import { benchPaths } from "./paths.js";

const { repoRoot } = benchPaths();
const FLOOD = Number(process.env.FLOOD ?? 8);
const SECONDS = Number(process.env.SECONDS ?? 15);
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 8);
const SECRET = "bench-secret-bench-secret-bench-secret-bench!";

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** One request on `agent`'s connection; the status and the milliseconds it took. */
function timed(agent: Agent, port: number, method: string, path: string, body?: string): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      { host: "127.0.0.1", port, method, path, agent, headers: body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

/** Plain reads one after another on one connection, until `until` says stop (or `count` are done). */
async function reads(port: number, until: () => boolean, count = Infinity): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const out: number[] = [];
  try {
    while (!until() && out.length < count) {
      const r = await timed(agent, port, "GET", "/api/accounts:notes_of?owner=nobody");
      if (r.status !== 200) throw new Error(`read answered ${r.status}`);
      out.push(r.ms);
      // A pause, as a client between clicks: the read measures waiting, not its own queue.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    agent.destroy();
  }
  return out;
}

async function main(): Promise<void> {
  const backend = option("backend") ?? "sqlite";
  const work = join(repoRoot, "build", "tmp", "bench-signin-flood");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const db = option("db") ?? join(work, "accounts.db");
  const result = await build({ mode: "project", dir: join(repoRoot, "examples", "accounts") }, { runtimeImport: "svc/runtime" });
  if (result.files.length === 0) throw new Error(formatDiagnostics(result));
  for (const f of result.files) {
    mkdirSync(join(work, f.path, ".."), { recursive: true });
    writeFileSync(join(work, f.path), f.contents);
  }
  const port = 19000 + (process.pid % 1000);
  const child = spawn(
    process.execPath,
    [join(work, "server.js"), "--listen", `127.0.0.1:${port}`, "--backend", backend, "--db", db, "--workers", "1", "--log-level", "error"],
    { env: { ...process.env, JWT_SECRET: SECRET }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  try {
    for (let i = 0; ; i++) {
      if (i > 300) throw new Error(`the server did not start:\n${stderr}`);
      try {
        await fetch(`http://127.0.0.1:${port}/health`);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const run = `${Date.now().toString(36)}`;
    const emails = Array.from({ length: ACCOUNTS }, (_, i) => `flood-${run}-${i}@example.com`);
    // One after another: the server hashes one or two at a time, and a queue longer than the write timeout gets 503s.
    const setup = new Agent({ keepAlive: true, maxSockets: 1 });
    for (const email of emails) {
      const made = await timed(setup, port, "POST", "/api/users", JSON.stringify({ email, name: "Flood", password: "flood password" }));
      if (made.status !== 200) throw new Error(`sign-up answered ${made.status}`);
    }
    setup.destroy();

    await reads(port, () => false, 50); // warm-up
    const unloaded = await reads(port, () => false, 200);

    let stop = false;
    let signIns = 0;
    const statuses = new Map<number, number>();
    const flooders = Array.from({ length: FLOOD }, async (_, i) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let n = i; !stop; n++) {
        const body = JSON.stringify({ email: emails[n % emails.length], password: "flood password" });
        const r = await timed(agent, port, "POST", "/api/users/login", body);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 200) signIns++;
      }
      agent.destroy();
    });
    // Let the flood fill the queue first, then read through it.
    await new Promise((r) => setTimeout(r, 2000));
    const started = performance.now();
    const loaded = await reads(port, () => performance.now() - started > SECONDS * 1000);
    stop = true;
    await Promise.all(flooders);
    // Unloaded again: on a shared machine the load of others drifts, and the two unloaded runs show how much.
    const after = await reads(port, () => false, 200);

    const [u50, l50] = [quantile([...unloaded, ...after], 0.5), quantile(loaded, 0.5)];
    console.log(`backend ${backend}, ${FLOOD} connections signing in, ${ACCOUNTS} accounts, ${SECONDS} s`);
    console.log(`sign-ins answered: ${[...statuses].map(([s, n]) => `${n}×${s}`).join(", ")} (${(signIns / (SECONDS + 2)).toFixed(1)}/s succeeded)`);
    console.log(`plain read unloaded, before: median ${quantile(unloaded, 0.5).toFixed(2)} ms, p90 ${quantile(unloaded, 0.9).toFixed(2)} ms (${unloaded.length})`);
    console.log(`plain read unloaded, after: median ${quantile(after, 0.5).toFixed(2)} ms, p90 ${quantile(after, 0.9).toFixed(2)} ms (${after.length})`);
    console.log(`plain read during the flood: median ${l50.toFixed(2)} ms, p90 ${quantile(loaded, 0.9).toFixed(2)} ms (${loaded.length})`);
    console.log(`ratio of medians, during / unloaded (before and after together, median ${u50.toFixed(2)} ms): ${(l50 / u50).toFixed(2)} (the bar: at most 2)`);
  } finally {
    child.kill("SIGTERM");
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
