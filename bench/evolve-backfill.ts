// `npm run bench:evolve` (issue 35, target 2): `text?` → `text` with `backfill "nobody"` over
// 100,000 rows on PostgreSQL while writes go on. A server of the old build (`owner: text?`)
// serves the writes over HTTP: creates, which leave `owner` NULL as the old build does, and
// updates of random rows: for five seconds, then while the new build's expand phase runs (the
// trigger, the batched backfill, CHECK NOT VALID + VALIDATE: what `svc migrate apply` or the
// new build's start does), then as long again after it. The requests' latency p50/p95 with the
// backfill and without it (before and after, pooled: load that drifts during the run weighs on
// both sides alike) and their ratio are printed, with every failed request. After the expand
// the old build's writes still pay the trigger that keeps the column filled until the contract.
//
// The new build's tables come from compiling it here, before either window, and the expand
// runs in this process: compiling is not the backfill, and `svc migrate apply` would spend its
// first seconds of a core on it inside the window.
//
// SVC_BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test); ROWS, WRITERS.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import postgres from "postgres";
import { Pool } from "undici";
import { build, formatDiagnostics } from "../compiler/index.js";
import { runMigration } from "../compiler/cli/migrate-backends.js";
import type { ServerSpec } from "../runtime/contract/index.js";
import { ownTables } from "../runtime/start/own-tables.js";
import { Resources } from "./resources.js";
import { HOST, freePort } from "./server-process.js";

const URL_ = process.env.SVC_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const ROWS = Number(process.env.ROWS ?? 100_000);
const WRITERS = Number(process.env.WRITERS ?? 4);
const SCHEMA = `svc_bench_evolve_${process.pid}`;
/** build/, where the compiled runtime sits: the old build's server.js imports it from two folders below. */
const OUT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The old build leaves owner out of its inserts; the new one must give it. */
const module = (owner: string, inserted: string) => `module tasks

resource task {
  id: id
  note: text?
  ${owner}
}

action create(note: text) {
  return insert task { note: note${inserted} }
}

action touch(id: id, note: text) {
  return update task(id) { note: note }
}
`;

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface Window {
  latencies: number[];
  failed: string[];
}

/** Built into a fresh folder under build/tmp (server.js and its sql.js, as `svc build` writes them). */
async function compile(owner: string, inserted: string, resources: Resources): Promise<{ dir: string }> {
  mkdirSync(join(OUT, "tmp"), { recursive: true });
  const dir = mkdtempSync(join(OUT, "tmp", "bench-evolve-"));
  resources.trackDir(dir);
  const src = join(dir, "src");
  mkdirSync(src);
  writeFileSync(join(src, "tasks.svc"), module(owner, inserted));
  const built = await build({ mode: "module", dir: src }, { runtimeImport: "../../runtime/index.js" });
  if (built.files.length === 0) throw new Error(`the bench's module does not build:\n${formatDiagnostics(built)}`);
  for (const f of built.files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.contents);
  }
  return { dir };
}

/** Writers until `done()` says stop: each a create (owner left NULL), then an update of a random seeded row. */
async function write(pool: Pool, done: () => boolean): Promise<Window> {
  const w: Window = { latencies: [], failed: [] };
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, c) => {
      for (let i = 0; !done(); i++) {
        const body =
          i % 2 === 0
            ? { path: "/api/tasks:create", json: { note: `w${c} ${i}` } }
            : { path: "/api/tasks:touch", json: { id: seededId(1 + Math.floor(Math.random() * ROWS)), note: `u${c} ${i}` } };
        const t0 = performance.now();
        try {
          const r = await pool.request({ path: body.path, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body.json) });
          const text = await r.body.text();
          if (r.statusCode !== 200) w.failed.push(`${r.statusCode} ${text.slice(0, 200)}`);
          else w.latencies.push(performance.now() - t0);
        } catch (err) {
          w.failed.push((err as Error).message);
        }
      }
    }),
  );
  w.latencies.sort((a, b) => a - b);
  return w;
}

/** Five seconds of writes before the backfill: about as long as it takes on an idle machine. */
const BEFORE_MS = 5000;

function deadline(ms: number): () => boolean {
  const until = performance.now() + ms;
  return () => performance.now() >= until;
}

const seededId = (n: number) => `seed${String(n).padStart(22, "0")}`;

async function main(): Promise<void> {
  const resources = new Resources();
  process.on("exit", () => resources.releaseSync());
  const admin = postgres(URL_, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`CREATE SCHEMA "${SCHEMA}"`);
  const url = new URL(URL_);
  url.searchParams.set("schema", SCHEMA);
  const db = url.toString();
  try {
    const old = await compile("owner: text?", "", resources);
    const next = await compile(`owner: text backfill "nobody"`, `, owner: "nobody"`, resources);
    const { spec } = (await import(pathToFileURL(join(next.dir, "server.js")).href)) as { spec: ServerSpec };

    const port = await freePort();
    const child = spawn(process.execPath, [join(old.dir, "server.js"), "--listen", `${HOST}:${port}`, "--db", db, "--workers", "1"], {
      cwd: old.dir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    resources.track(child);
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    const pool = new Pool(`http://${HOST}:${port}`, { connections: WRITERS, pipelining: 1 });
    for (const deadline = Date.now() + 60_000; ; ) {
      const up = await pool.request({ path: "/health", method: "GET" }).then(
        async (r) => (await r.body.text(), r.statusCode === 200),
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the old build's server did not start:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await admin.unsafe(
      `INSERT INTO "${SCHEMA}".task (id, note, owner) SELECT 'seed' || lpad(g::text, 22, '0'), 'n' || g, CASE WHEN g % 2 = 0 THEN 'ann' END FROM generate_series(1, ${ROWS}) g`,
    );
    await admin.unsafe(`VACUUM ANALYZE "${SCHEMA}".task`);
    // Warm the server's code paths and connections before any window counts.
    await write(pool, deadline(2000));

    // Without the backfill both before and after it, pooled: a machine whose load drifts during
    // the run then weighs on both sides of the ratio alike.
    const before = await write(pool, deadline(BEFORE_MS));
    let expanding = true;
    const t0 = performance.now();
    const during = write(pool, () => !expanding);
    const result = await runMigration("postgres", db, [...spec.tables, ...ownTables(spec)], spec.schema, "expand");
    const backfillMs = performance.now() - t0;
    expanding = false;
    const withBackfill = await during;
    const after = await write(pool, deadline(backfillMs));
    await pool.close();
    const without: Window = { latencies: [...before.latencies, ...after.latencies].sort((a, b) => a - b), failed: [...before.failed, ...after.failed] };

    const [left] = await admin.unsafe(`SELECT count(*)::int AS n FROM "${SCHEMA}".task WHERE owner IS NULL`);
    const p = (w: Window, q: number) => quantile(w.latencies, q);
    const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
    console.log(
      `evolve backfill over HTTP: ${ROWS} rows (${ROWS / 2} NULL), ${WRITERS} writers through one server of the old build, ` +
        `expand took ${(backfillMs / 1000).toFixed(2)} s (${result.evolve.changes.length} change${result.evolve.changes.length === 1 ? "" : "s"})`,
    );
    console.log(`  without backfill: ${without.latencies.length} requests, p50 ${fmt(p(without, 0.5))}, p95 ${fmt(p(without, 0.95))}, ${without.failed.length} failed`);
    console.log(`  with backfill:    ${withBackfill.latencies.length} requests, p50 ${fmt(p(withBackfill, 0.5))}, p95 ${fmt(p(withBackfill, 0.95))}, ${withBackfill.failed.length} failed`);
    console.log(`  ratio (with / without): p50 ${(p(withBackfill, 0.5) / p(without, 0.5)).toFixed(2)}×, p95 ${(p(withBackfill, 0.95) / p(without, 0.95)).toFixed(2)}× (target: within 2×)`);
    console.log(`  rows left NULL: ${String(left?.n)}`);
    for (const f of [...withBackfill.failed, ...without.failed].slice(0, 5)) console.log(`  failed: ${f}`);
  } finally {
    await resources.release();
    await admin.unsafe(`DROP SCHEMA "${SCHEMA}" CASCADE`);
    await admin.end({ timeout: 2 });
  }
}

await main();
