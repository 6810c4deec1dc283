// What svc's spans cost the serving thread alone, without a server around them: the three spans
// of a traced get_task (the request with its three later attributes, its query, the query's
// statement) started, ended and encoded to OTLP protobuf (runtime/traces/span.ts, otlp.ts), a
// batch taken every 512 spans as the exporter takes them. Counted in instructions under
// callgrind: the script runs itself under `valgrind --tool=callgrind node --single-threaded`,
// warms up, zeroes the counters (callgrind_control -z), runs COUNTED requests' spans and dumps.
// The server's figures (bench/observability.ts) add the request's own work, the export thread
// and the JIT's and collector's share; this one moves only with the spans' code.
//
//   npx tsc -p tsconfig.json && node build/bench/traces-encoder.js      (WARMUP, COUNTED)

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { dumpInstructions, newestDump } from "./callgrind/dump.js";
import { requireValgrind } from "./callgrind/valgrind.js";
import { OtlpEncoder } from "../runtime/traces/otlp.js";
import { getTaskSpans } from "./get-task-spans.js";

const WARMUP = Number(process.env.WARMUP ?? 50_000);
const COUNTED = Number(process.env.COUNTED ?? 20_000);
const UNDER = "SVC_TRACES_ENCODER_COUNTING";

/** get_task's spans, as runtime/traces makes them for the task tracker. */
function spans(): () => void {
  const encoder = new OtlpEncoder({ "service.name": "bench", "service.version": "0.1.0" }, { name: "svc", version: "0.1.0" });
  let ended = 0;
  return getTaskSpans(encoder, () => {
    if (++ended % 512 === 0) encoder.take();
  });
}

if (process.env[UNDER] !== undefined) {
  const one = spans();
  for (let i = 0; i < WARMUP; i++) one();
  execFileSync("callgrind_control", ["-z", String(process.pid)]);
  for (let i = 0; i < COUNTED; i++) one();
  execFileSync("callgrind_control", ["-d", String(process.pid)]);
} else {
  const valgrind = requireValgrind();
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-encoder-"));
  try {
    const run = spawnSync(
      "valgrind",
      ["--tool=callgrind", `--callgrind-out-file=${join(dir, "cg.%p")}`, process.execPath, "--single-threaded", fileURLToPath(import.meta.url)],
      { env: { ...process.env, [UNDER]: "1" }, stdio: ["ignore", "inherit", "pipe"], encoding: "utf8" },
    );
    if (run.status !== 0) throw new Error(`the counted run failed: ${run.stderr.slice(-2000)}`);
    const dump = newestDump(readdirSync(dir), run.pid!, 0);
    if (dump === null) throw new Error("callgrind wrote no dump");
    const perRequest = dumpInstructions(readFileSync(join(dir, dump), "utf8")) / COUNTED;
    console.log(`get_task's 3 spans, started, ended and encoded: ${Math.round(perRequest).toLocaleString("en-US")} instructions a request (${valgrind}; ${COUNTED} counted after ${WARMUP})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
