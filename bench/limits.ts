// Rate-limit costs (issue 30): instructions per request of the same action with and without
// a declared limit, counted by valgrind's callgrind as bench/identity.ts counts identity;
// and guesses per second one client gets against examples/accounts' sign-in, with the
// sign-in throttle off (`[auth.throttle] enabled = false`) and on (the defaults).
// `npm run bench:limits` (valgrind must be installed).

import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build, formatDiagnostics } from "../compiler/index.js";
import { benchPaths } from "./paths.js";

const { repoRoot } = benchPaths();

const WARMUP = Number(process.env.WARMUP ?? 3000);
const MEASURED = Number(process.env.MEASURED ?? 3000);
const GUESS_SECONDS = Number(process.env.GUESS_SECONDS ?? 10);
const SECRET = "bench-secret-bench-secret-bench-secret-bench!";

type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: { non2xx: number; errors: number }) => void) => unknown;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const MODULE = `module bench

/// The same answer, without a limit and with one no request reaches.
action plain(text: text) { return { text: text } }
action by_address(text: text) limit 1000000 per 1s { return { text: text } }
action by_argument(text: text) limit 1000000 per 1s by text { return { text: text } }
`;

function load(url: string, amount: number): Promise<void> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, method: "POST", connections: 8, amount, timeout: 120, body: '{"text":"hello"}', headers: { "content-type": "application/json" } },
      (err, result) => {
        if (err) reject(err);
        else if (result.non2xx > 0 || result.errors > 0) reject(new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`));
        else resolve();
      },
    );
  });
}

function totalInstructions(dir: string, before: Set<string>): number {
  const dumps = readdirSync(dir).filter((f) => /^callgrind\.out\.\d+\.\d+$/.test(f) && !before.has(f));
  if (dumps.length !== 1) throw new Error(`expected one new dump, found ${dumps.join(", ")}`);
  before.add(dumps[0]);
  const m = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, dumps[0]), "utf8"));
  if (!m) throw new Error(`no totals in ${dumps[0]}`);
  return Number(m[1]);
}

async function buildInto(dir: string, target: Parameters<typeof build>[0]): Promise<void> {
  const result = await build(target, { runtimeImport: "svc/runtime" });
  if (result.files.length === 0) throw new Error(formatDiagnostics(result));
  for (const f of result.files) {
    mkdirSync(join(dir, f.path, ".."), { recursive: true });
    writeFileSync(join(dir, f.path), f.contents);
  }
}

async function waitUp(base: string, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let i = 0; ; i++) {
    if (i > 600 || child.exitCode !== null) throw new Error(`the server did not start:\n${stderr()}`);
    try {
      await fetch(`${base}/health`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; stderr: () => string } {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let text = "";
  child.stderr!.on("data", (d: Buffer) => (text += d.toString()));
  return { child, stderr: () => text };
}

async function instructions(work: string): Promise<void> {
  const project = join(work, "project");
  mkdirSync(join(project, "modules", "bench"), { recursive: true });
  writeFileSync(join(project, "svc.toml"), '[project]\nname = "bench"\n');
  writeFileSync(join(project, "modules", "bench", "bench.svc"), MODULE);
  const out = join(work, "server");
  mkdirSync(out, { recursive: true });
  await buildInto(out, { mode: "project", dir: project });
  const cg = join(work, "cg");
  mkdirSync(cg, { recursive: true });
  const port = 18500 + (process.pid % 500);
  const { child, stderr } = start(
    "valgrind",
    ["--tool=callgrind", `--callgrind-out-file=${join(cg, "callgrind.out.%p")}`, process.execPath, "--single-threaded", join(out, "server.js"),
      "--listen", `127.0.0.1:${port}`, "--db", join(work, "bench.db"), "--workers", "1", "--log-level", "warn"],
    {},
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUp(base, child, stderr);
    const variants = ["plain", "by_address", "by_argument"];
    for (const v of variants) await load(`${base}/api/bench:${v}`, WARMUP);
    const seen = new Set<string>();
    let rows: [string, number][] = [];
    for (let round = 1; round <= 2; round++) {
      rows = [];
      for (const v of variants) {
        execFileSync("callgrind_control", ["-z", String(child.pid)]);
        await load(`${base}/api/bench:${v}`, MEASURED);
        execFileSync("callgrind_control", ["-d", String(child.pid)]);
        await new Promise((r) => setTimeout(r, 500));
        rows.push([v, totalInstructions(cg, seen) / MEASURED]);
      }
      console.log(`round ${round}: ${rows.map(([n, v]) => `${n} ${Math.round(v)}`).join(", ")}`);
    }
    console.log(`instructions per request, POST /api/bench:<action> (${WARMUP} warm-up, ${MEASURED} measured, -c 8, node --single-threaded, SQLite file)`);
    console.log("| action | instructions/request | vs no limit |\n|---|---|---|");
    for (const [name, n] of rows) console.log(`| ${name} | ${Math.round(n).toLocaleString("en")} | ${(n / rows[0][1]).toFixed(3)} |`);
  } finally {
    child.kill("SIGTERM");
  }
}

/** One client guessing one account's password as fast as answers come back, for GUESS_SECONDS. */
async function guesses(work: string, throttle: boolean): Promise<void> {
  const out = join(work, throttle ? "accounts-on" : "accounts-off");
  const project = join(work, throttle ? "src-on" : "src-off");
  cpSync(join(repoRoot, "examples", "accounts"), project, { recursive: true, filter: (p) => !p.includes("/data") && !p.includes("/dist") });
  if (!throttle) appendFileSync(join(project, "svc.toml"), "\n[auth.throttle]\nenabled = false\n");
  mkdirSync(out, { recursive: true });
  await buildInto(out, { mode: "project", dir: project });
  const port = 19000 + (process.pid % 500) + (throttle ? 1 : 0);
  const { child, stderr } = start(process.execPath, [join(out, "server.js"), "--listen", `127.0.0.1:${port}`, "--db", join(out, "accounts.db"), "--workers", "1", "--log-level", "warn"], { JWT_SECRET: SECRET });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUp(base, child, stderr);
    const post = (body: unknown) => fetch(`${base}/api/users/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    await fetch(`${base}/api/users`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "victim@example.com", name: "V", password: "the real password" }) });
    const counts = new Map<number, number>();
    const started = performance.now();
    let i = 0;
    while (performance.now() - started < GUESS_SECONDS * 1000) {
      const res = await post({ email: "victim@example.com", password: `guess ${i++}` });
      await res.arrayBuffer();
      counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
    }
    const seconds = (performance.now() - started) / 1000;
    const checked = counts.get(401) ?? 0;
    console.log(
      `sign-in guessing, throttle ${throttle ? "on (defaults)" : "off"}: ${checked} passwords checked in ${seconds.toFixed(1)} s ` +
        `(${(checked / seconds).toFixed(2)} guesses/s), answers ${[...counts].map(([s, n]) => `${s}×${n}`).join(", ")}`,
    );
  } finally {
    child.kill("SIGTERM");
  }
}

async function main(): Promise<void> {
  const work = join(repoRoot, "build", "tmp", "bench-limits");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  if (process.env.SKIP_GUESSES !== "1") {
    await guesses(work, false);
    await guesses(work, true);
  }
  if (process.env.SKIP_CALLGRIND !== "1") await instructions(work);
}

await main();
