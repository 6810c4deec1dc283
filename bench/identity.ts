// Identity costs (issue 11's closing note): instructions per request of the same action
// (`accounts.whoami`, optional auth) called anonymously, with a JWT, with the JWT of a
// revoked subject issued after its revocation (issue 30: the revocation check finds the
// subject), and with a session cookie, counted by valgrind's callgrind; and the wall time of one password hash and one
// verify. `npm run bench:identity` (valgrind must be installed: apt-get install valgrind).
//
// As issue 16 describes: the server runs under `valgrind --tool=callgrind node
// --single-threaded` (V8's helper threads would make counts vary), each variant is warmed
// up, the counters are zeroed (`callgrind_control -z`), the measured requests are sent with
// autocannon (8 connections), and `callgrind_control -d` dumps the total.

import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build, formatDiagnostics, writeOutputFiles } from "../compiler/index.js";
import { hashPassword, verifyPassword } from "../runtime/auth/password.js";
import { benchPaths } from "./paths.js";

const { repoRoot } = benchPaths();

const WARMUP = Number(process.env.WARMUP ?? 3000);
const MEASURED = Number(process.env.MEASURED ?? 3000);
const SECRET = "bench-secret-bench-secret-bench-secret-bench!";

type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: { non2xx: number; errors: number }) => void) => unknown;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

function load(url: string, amount: number, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, method: "POST", connections: 8, amount, body: "{}", headers: { "content-type": "application/json", ...headers } },
      (err, result) => {
        if (err) reject(err);
        else if (result.non2xx > 0 || result.errors > 0) reject(new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`));
        else resolve();
      },
    );
  });
}

async function json(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; data: any; cookie: string | null }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body), redirect: "manual" });
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text).data : null, cookie: res.headers.get("set-cookie") };
}

function totalInstructions(dir: string, before: Set<string>): number {
  const dumps = readdirSync(dir).filter((f) => /^callgrind\.out\.\d+\.\d+$/.test(f) && !before.has(f));
  if (dumps.length !== 1) throw new Error(`expected one new dump, found ${dumps.join(", ")}`);
  before.add(dumps[0]);
  const text = readFileSync(join(dir, dumps[0]), "utf8");
  const m = /^(?:summary|totals): (\d+)/m.exec(text);
  if (!m) throw new Error(`no totals in ${dumps[0]}`);
  return Number(m[1]);
}

async function main(): Promise<void> {
  // Password costs first, before valgrind takes a core. Wall time depends on what else the
  // machine runs; CPU time (process.cpuUsage covers the libuv thread that runs scrypt) is
  // what a hash costs the server.
  const hashes: number[] = [];
  const verifies: number[] = [];
  const hashCpu: number[] = [];
  const verifyCpu: number[] = [];
  for (let i = 0; i < 9; i++) {
    let cpu = process.cpuUsage();
    let t = performance.now();
    const stored = await hashPassword(`password ${i}`);
    hashes.push(performance.now() - t);
    cpu = process.cpuUsage(cpu);
    hashCpu.push((cpu.user + cpu.system) / 1000);
    cpu = process.cpuUsage();
    t = performance.now();
    await verifyPassword(stored, `password ${i}`);
    verifies.push(performance.now() - t);
    cpu = process.cpuUsage(cpu);
    verifyCpu.push((cpu.user + cpu.system) / 1000);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(
    `password hash: median ${median(hashes).toFixed(1)} ms wall, ${median(hashCpu).toFixed(1)} ms CPU; ` +
      `verify: median ${median(verifies).toFixed(1)} ms wall, ${median(verifyCpu).toFixed(1)} ms CPU (9 each, scrypt ln=17 r=8 p=1)`,
  );

  const work = join(repoRoot, "build", "tmp", "bench-identity");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, "cg"), { recursive: true });
  const result = await build({ mode: "project", dir: join(repoRoot, "examples", "accounts") }, { runtimeImport: "svc/runtime" });
  if (result.files.length === 0) throw new Error(formatDiagnostics(result));
  writeOutputFiles(work, result.files);

  const port = 18000 + (process.pid % 1000);
  const cg = join(work, "cg");
  const child = spawn(
    "valgrind",
    ["--tool=callgrind", `--callgrind-out-file=${join(cg, "callgrind.out.%p")}`, process.execPath, "--single-threaded", join(work, "server.js"),
      "--listen", `127.0.0.1:${port}`, "--db", join(work, "accounts.db"), "--workers", "1", "--log-level", "warn"],
    { env: { ...process.env, JWT_SECRET: SECRET }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (i > 600) throw new Error(`the server did not start:\n${stderr}`);
      try {
        await fetch(`${base}/health`);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const signUp = await json(`${base}/api/users`, { email: "bench@example.com", name: "Bench", password: "bench password" });
    if (signUp.status !== 200) throw new Error(`sign-up: ${signUp.status}`);
    // Sign-up answers no token (docs/auth.md, "Sign-up without enumeration"): sign in for one.
    const signIn = await json(`${base}/api/users/login`, { email: "bench@example.com", password: "bench password" });
    if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status}`);
    const token = signIn.data.token as string;
    const form = await fetch(`${base}/session`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=bench%40example.com&password=bench%20password",
      redirect: "manual",
    });
    const cookie = /svc_session=[^;]*/.exec(form.headers.get("set-cookie") ?? "")?.[0];
    if (!cookie) throw new Error("sign-in set no cookie");
    // A password change revokes the subject's earlier tokens and answers a new one.
    const other = await json(`${base}/api/users`, { email: "revoked@example.com", name: "Revoked", password: "bench password" });
    const changed = await json(`${base}/api/user/password`, { password: "other password" }, { authorization: `Bearer ${other.data.token}` });
    if (changed.status !== 200) throw new Error(`password change: ${changed.status}`);

    const variants: [string, Record<string, string>][] = [
      ["anonymous", {}],
      ["JWT (Authorization: Bearer)", { authorization: `Bearer ${token}` }],
      ["JWT of a revoked subject, issued after", { authorization: `Bearer ${changed.data.token}` }],
      ["session cookie", { cookie }],
    ];
    const seen = new Set<string>();
    const url = `${base}/api/accounts:whoami`;
    for (const [name, headers] of variants) {
      const check = await json(url, {}, headers);
      if (check.data.signed_in !== (name !== "anonymous")) throw new Error(`${name}: signed_in is ${check.data.signed_in}`);
    }
    // Every variant warms up before any is counted: JIT work left over from a later
    // variant's first requests would otherwise be charged to it. Then two rounds; the
    // second is reported, the first shows whether the figure had settled.
    for (const [, headers] of variants) await load(url, WARMUP, headers);
    let rows: [string, number][] = [];
    for (let round = 1; round <= 2; round++) {
      rows = [];
      for (const [name, headers] of variants) {
        execFileSync("callgrind_control", ["-z", String(child.pid)]);
        await load(url, MEASURED, headers);
        execFileSync("callgrind_control", ["-d", String(child.pid)]);
        await new Promise((r) => setTimeout(r, 500));
        rows.push([name, totalInstructions(cg, seen) / MEASURED]);
      }
      console.log(`round ${round}: ${rows.map(([n, v]) => `${n} ${Math.round(v)}`).join(", ")}`);
    }
    const anonymous = rows[0][1];
    console.log(`instructions per request, POST /api/accounts:whoami (${WARMUP} warm-up, ${MEASURED} measured, -c 8, node --single-threaded, SQLite)`);
    console.log("| caller | instructions/request | vs anonymous |\n|---|---|---|");
    for (const [name, n] of rows) console.log(`| ${name} | ${Math.round(n).toLocaleString("en")} | ${(n / anonymous).toFixed(3)} |`);
  } finally {
    child.kill("SIGTERM");
  }

}

await main();
