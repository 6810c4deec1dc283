// What openapi.json and client.ts add to a cold `svc build` (issue 13's target: under 10%).
// Each round builds each project twice in fresh processes, with and without the two outputs,
// in alternating order; the report gives the medians, and the median of each round's
// difference (steadier than the difference of medians on a noisy machine). Run it on a
// quiet machine: these are wall-clock times.
//
//   npm run bench:api-outputs -- [--rounds N]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..", "..");
const child = join(here, "child.js");
const { values } = parseArgs({ options: { rounds: { type: "string", default: "9" } } });
const rounds = Number(values.rounds);
const PROJECTS = [join(repo, "examples", "task_tracker"), join(repo, "examples", "conduit")];

interface Run {
  ms: number;
  openapi: number;
  client: number;
}

function once(project: string, mode: "with" | "without"): Run {
  const out = mkdtempSync(join(tmpdir(), "svc-api-outputs-"));
  try {
    return JSON.parse(execFileSync(process.execPath, [child, project, out, mode], { encoding: "utf8" })) as Run;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`| project | cold build without | with openapi.json + client | added (median of round differences) | openapi.json | client.ts |`);
console.log(`|---|---|---|---|---|---|`);
for (const project of PROJECTS) {
  once(project, "with"); // the first build of a project warms the disk cache
  const without: number[] = [];
  const withOutputs: number[] = [];
  let sizes: Run | null = null;
  for (let i = 0; i < rounds; i++) {
    const order: ("with" | "without")[] = i % 2 === 0 ? ["with", "without"] : ["without", "with"];
    for (const mode of order) {
      const run = once(project, mode);
      if (mode === "with") {
        withOutputs.push(run.ms);
        sizes = run;
      } else without.push(run.ms);
    }
  }
  const a = median(without);
  const b = median(withOutputs);
  const added = median(withOutputs.map((w, i) => w - without[i]));
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `| ${project.slice(repo.length + 1)} | ${a.toFixed(0)} ms | ${b.toFixed(0)} ms | ${added.toFixed(0)} ms, ${((added / a) * 100).toFixed(1)}% | ${kb(sizes!.openapi)} | ${kb(sizes!.client)} |`,
  );
}
