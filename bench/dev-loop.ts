// `npm run bench:dev`: how long `svc dev` takes from a save to the new code being served,
// and how long a cold `svc build` takes (docs/language.md §7; issue 8's targets: p50 < 300 ms,
// p95 < 600 ms from save to served; cold build < 1.5 s).
//
// Save → served: a copy of examples/task_tracker under the OS temp folder runs in an
// in-process dev server (as `svc dev` runs it); once it has settled after start (its
// warm-up builds done), each of 20 edits is written to disk, then
// an endpoint is polled until it shows the edit. Edits alternate between a page template
// (polling the page) and a query (polling its API endpoint). Cold build: `svc build` as a
// fresh process, three times, the median reported.

import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { DevServer } from "../compiler/dev/server.js";

const EDITS = 20;
const POLL_MS = 2;
const TIMEOUT_MS = 20_000;
const TARGETS = { p50: 300, p95: 600, coldBuild: 1500 };

const repo = fileURLToPath(new URL("../../", import.meta.url));
const cli = fileURLToPath(new URL("../compiler/cli/svc.js", import.meta.url));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function replaceIn(file: string, from: RegExp, to: string): void {
  const text = readFileSync(file, "utf8");
  if (!from.test(text)) throw new Error(`${file}: nothing matches ${from}`);
  writeFileSync(file, text.replace(from, to));
}

async function waitFor(url: string, marker: string): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
  while (performance.now() < deadline) {
    const res = await fetch(url, { headers: { accept: "text/html" } });
    if ((await res.text()).includes(marker)) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new Error(`${url} did not show ${marker} within ${TIMEOUT_MS} ms`);
}

async function saveToServed(project: string): Promise<number[]> {
  // The example's webhook needs its secret to start; dev reads it like the server does.
  process.env.GITHUB_WEBHOOK_SECRET ??= "bench-secret";
  const dev = await DevServer.start({
    target: { mode: "project", dir: project },
    port: 0,
    say: () => undefined,
    logSink: () => undefined,
  });
  try {
    const created = await fetch(`${dev.url}/api/task_tracker:create_task`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "bench" }),
    });
    if (created.status !== 200) throw new Error(`create_task answered ${created.status}`);
    // As a person would: the first save comes after the dev server has settled (warm-up builds).
    await dev.idle();
    const page = join(project, "app", "tasks", "page.html");
    const module = join(project, "modules", "task_tracker", "task_tracker.svc");
    const times: number[] = [];
    for (let i = 1; i <= EDITS; i++) {
      const marker = `edit${i}x`;
      const started = performance.now();
      if (i % 2 === 1) {
        replaceIn(page, /<h1>Tasks[^<]*<\/h1>/, `<h1>Tasks ${marker}</h1>`);
        await waitFor(`${dev.url}/tasks`, marker);
      } else {
        replaceIn(
          module,
          /SELECT \*(, '[^']*' AS mark)? FROM task\n  WHERE \(@status/,
          `SELECT *, '${marker}' AS mark FROM task\n  WHERE (@status`,
        );
        await waitFor(`${dev.url}/api/task_tracker:list_tasks`, marker);
      }
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    await dev.close();
  }
}

function coldBuilds(project: string, runs = 3): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = join(project, `dist-${i}`);
    const started = performance.now();
    const run = spawnSync(process.execPath, [cli, "build", "--project", project, "--out", out], { encoding: "utf8" });
    times.push(performance.now() - started);
    if (run.status !== 0) throw new Error(`svc build failed:\n${run.stderr}`);
  }
  return times;
}

async function main(): Promise<void> {
  const project = mkdtempSync(join(tmpdir(), "svc-bench-dev-"));
  try {
    for (const part of ["svc.toml", "modules", "app", "public"]) {
      cpSync(join(repo, "examples", "task_tracker", part), join(project, part), { recursive: true });
    }
    const inOrder = await saveToServed(project);
    const edits = [...inOrder].sort((a, b) => a - b);
    const builds = coldBuilds(project).sort((a, b) => a - b);
    const p50 = percentile(edits, 50);
    const p95 = percentile(edits, 95);
    const cold = percentile(builds, 50);
    const verdict = (value: number, target: number): string => (value < target ? "ok" : "MISSED");
    console.log(`svc dev loop: ${EDITS} edits of examples/task_tracker (alternating page template and query)`);
    console.log(
      `  machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    console.log(`  save → served  p50 ${p50.toFixed(0)} ms (target < ${TARGETS.p50}: ${verdict(p50, TARGETS.p50)})`);
    console.log(`                 p95 ${p95.toFixed(0)} ms (target < ${TARGETS.p95}: ${verdict(p95, TARGETS.p95)})`);
    console.log(`                 min ${edits[0].toFixed(0)} ms, max ${edits[edits.length - 1].toFixed(0)} ms`);
    console.log(`                 in order: ${inOrder.map((t) => t.toFixed(0)).join(" ")}`);
    console.log(
      `  cold svc build median ${cold.toFixed(0)} ms of ${builds.map((b) => b.toFixed(0)).join(", ")} (target < ${TARGETS.coldBuild}: ${verdict(cold, TARGETS.coldBuild)})`,
    );
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`bench:dev: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
