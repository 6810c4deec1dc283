// What `enqueue` costs an action (issue 33: "state its instruction cost"), on SQLite, in
// instructions per request under valgrind's callgrind, as bench/limits.ts counts a limit: two
// builds of one tiny project, `plain` (an action that inserts a row) and `enqueue` (the same
// action, then `enqueue noop(n: n)`), each served under callgrind (`node --single-threaded`,
// --jobs off so no job runs while counting), both up at once and counted in turns: warm-up,
// then per round and build `callgrind_control -z`, MEASURED requests (autocannon, 8
// connections), `callgrind_control -d`, the dump's total ÷ MEASURED.
//
//   npx tsc -p tsconfig.json && node build/bench/jobs/enqueue-cost.js     (WARMUP, MEASURED, ROUNDS)

import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build, formatDiagnostics } from "../../compiler/index.js";
import { dumpInstructions } from "../callgrind/dump.js";
import { benchPaths } from "../paths.js";

const { repoRoot } = benchPaths();
const WARMUP = Number(process.env.WARMUP ?? 3000);
const MEASURED = Number(process.env.MEASURED ?? 3000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: { non2xx: number; errors: number }) => void) => unknown;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const BASE = `module bench

resource note {
  id: id
  n: int
}
`;
const VARIANTS = {
  plain: `${BASE}
action add(n: int) {
  insert note { n: n }
}
`,
  enqueue: `${BASE}
job noop(n: int) {
}

action add(n: int) {
  insert note { n: n }
  enqueue noop(n: n)
}
`,
};
type Variant = keyof typeof VARIANTS;

function load(url: string, amount: number): Promise<void> {
  return new Promise((resolve, reject) => {
    autocannon({ url, method: "POST", connections: 8, amount, timeout: 120, body: '{"n":7}', headers: { "content-type": "application/json" } }, (err, result) => {
      if (err) reject(err);
      else if (result.non2xx > 0 || result.errors > 0) reject(new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`));
      else resolve();
    });
  });
}

interface Served {
  child: ChildProcess;
  base: string;
  dumps: string;
  seen: Set<string>;
}

async function serve(work: string, variant: Variant, port: number): Promise<Served> {
  const project = join(work, variant, "project");
  mkdirSync(join(project, "modules", "bench"), { recursive: true });
  writeFileSync(join(project, "svc.toml"), '[project]\nname = "bench"\n');
  writeFileSync(join(project, "modules", "bench", "bench.svc"), VARIANTS[variant]);
  const out = join(work, variant, "server");
  const result = await build({ mode: "project", dir: project }, { runtimeImport: "svc/runtime" });
  if (result.files.length === 0) throw new Error(formatDiagnostics(result));
  for (const f of result.files) {
    mkdirSync(join(out, f.path, ".."), { recursive: true });
    writeFileSync(join(out, f.path), f.contents);
  }
  const dumps = join(work, variant, "cg");
  mkdirSync(dumps, { recursive: true });
  const args = [`--tool=callgrind`, `--callgrind-out-file=${join(dumps, "callgrind.out.%p")}`, process.execPath, "--single-threaded", join(out, "server.js"),
    "--listen", `127.0.0.1:${port}`, "--db", join(work, variant, "bench.db"), "--workers", "1", "--log-level", "warn", ...(variant === "enqueue" ? ["--jobs", "off"] : [])];
  const child = spawn("valgrind", args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (i > 1500 || child.exitCode !== null) throw new Error(`${variant}: the server did not start:\n${stderr}`);
    try {
      await fetch(`${base}/health`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return { child, base, dumps, seen: new Set() };
}

/** Instructions per request of MEASURED requests, between a zeroing and a dump. */
async function count(s: Served): Promise<number> {
  execFileSync("callgrind_control", ["-z", String(s.child.pid)], { stdio: "ignore" });
  await load(`${s.base}/api/bench:add`, MEASURED);
  // The driver's connections close after the last answer: let that land inside the count every time.
  await new Promise((r) => setTimeout(r, 500));
  execFileSync("callgrind_control", ["-d", String(s.child.pid)], { stdio: "ignore" });
  for (let i = 0; i < 600; i++) {
    const fresh = readdirSync(s.dumps).filter((f) => /^callgrind\.out\.\d+\.\d+$/.test(f) && !s.seen.has(f));
    if (fresh.length === 1) {
      s.seen.add(fresh[0]);
      return dumpInstructions(readFileSync(join(s.dumps, fresh[0]), "utf8")) / MEASURED;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no dump in ${s.dumps}`);
}

async function main(): Promise<void> {
  const work = join(repoRoot, "build", "tmp", "bench-enqueue-cost");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const port = 18700 + (process.pid % 400);
  const served: Record<Variant, Served> = { plain: await serve(work, "plain", port), enqueue: await serve(work, "enqueue", port + 1) };
  try {
    for (const v of ["plain", "enqueue"] as const) await load(`${served[v].base}/api/bench:add`, WARMUP);
    const rows: { plain: number; enqueue: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate which goes first, so drift falls on both.
      const order: Variant[] = round % 2 === 1 ? ["plain", "enqueue"] : ["enqueue", "plain"];
      const r = { plain: 0, enqueue: 0 };
      for (const v of order) r[v] = await count(served[v]);
      rows.push(r);
      console.log(`round ${round}: plain ${Math.round(r.plain)}, enqueue ${Math.round(r.enqueue)}, difference ${Math.round(r.enqueue - r.plain)}`);
    }
    console.log(`\ninstructions per request, POST /api/bench:add (${WARMUP} warm-up, ${MEASURED} measured per round, -c 8, node --single-threaded, SQLite file)`);
    console.log("| round | insert a row | insert a row + enqueue | enqueue's cost |\n|---|---|---|---|");
    rows.forEach((r, i) => console.log(`| ${i + 1} | ${Math.round(r.plain).toLocaleString("en")} | ${Math.round(r.enqueue).toLocaleString("en")} | ${Math.round(r.enqueue - r.plain).toLocaleString("en")} (${(((r.enqueue - r.plain) / r.plain) * 100).toFixed(1)} %) |`));
  } finally {
    for (const s of Object.values(served)) s.child.kill("SIGTERM");
  }
}

await main();
