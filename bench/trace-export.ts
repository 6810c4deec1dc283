// What sending a batch of spans costs the serving process: one OTLP/HTTP request of 512
// get_task-shaped spans (170 requests' worth) handed to the export thread (runtime/traces:
// threadSend, the official transport on a worker thread) until the collector's answer is back,
// counted in instructions under callgrind after WARM batches, each thread apart: the serving
// thread's hand-off (encoding excluded: the bench encodes before counting) and the export
// thread's send. The collector is a sink in a process of its own, so its work is not counted.
// The figure divided by the requests a batch holds is each request's share; bench:observability
// counts it with the rest, but early in a server's life, while the thread, which runs once a
// batch, is still being compiled: this one shows how that share falls as the thread warms
// (bench/README.md). The serving thread's figure is this bench's own as much as the hand-off's:
// its copies of the request are collected there.
//
//   npx tsc -p tsconfig.json && node build/bench/trace-export.js      (WARM, COUNTED)

import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { dumpInstructions } from "./callgrind/dump.js";
import { requireValgrind } from "./callgrind/valgrind.js";
import { freePort } from "./server-process.js";
import { Logger } from "../runtime/core/log.js";
import { threadSend } from "../runtime/traces/export.js";
import { OtlpEncoder } from "../runtime/traces/otlp.js";
import { getTaskSpans } from "./get-task-spans.js";

const WARM = (process.env.WARM ?? "50,400,2000").split(",").map(Number);
const COUNTED = Number(process.env.COUNTED ?? 100);
const UNDER = "SVC_TRACE_EXPORT_COUNTING";
/** Spans in a batch, OTEL_BSP_MAX_EXPORT_BATCH_SIZE's default, and get_task requests' spans in it. */
const BATCH = 512;
const REQUESTS = Math.floor(BATCH / 3);

/** One batch's request, as the encoder makes it from get_task's spans. */
function batchRequest(): Uint8Array {
  const encoder = new OtlpEncoder({ "service.name": "bench", "service.version": "0.1.0" }, { name: "svc", version: "0.1.0" });
  const one = getTaskSpans(encoder);
  for (let i = 0; i < REQUESTS; i++) one();
  return encoder.take();
}

async function counted(): Promise<void> {
  const request = batchRequest();
  const send = threadSend(new Logger("warn", (chunk) => void process.stderr.write(String(chunk))));
  // A copy for each send, made before the counting starts: the thread takes the memory it is given.
  const copies = (n: number) => Array.from({ length: n }, () => request.slice());
  let sent = 0;
  for (const warm of WARM) {
    for (const copy of copies(Math.max(0, warm - sent))) await send(copy, REQUESTS * 3);
    sent = Math.max(sent, warm);
    const batches = copies(COUNTED);
    execFileSync("callgrind_control", ["-z", String(process.pid)]);
    for (const copy of batches) await send(copy, REQUESTS * 3);
    execFileSync("callgrind_control", ["-d", String(process.pid)]);
    sent += COUNTED;
  }
  await send.shutdown!();
}

async function main(): Promise<void> {
  const valgrind = requireValgrind();
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-export-"));
  const port = await freePort();
  const sink = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { createServer } from "node:http";
       createServer((req, res) => { req.resume(); req.on("end", () => res.writeHead(200, { "Content-Type": "application/x-protobuf" }).end()); })
         .listen(${port}, "127.0.0.1", () => process.stdout.write("ready\\n"));`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    await new Promise<void>((resolve) => sink.stdout!.once("data", () => resolve()));
    const run = spawnSync(
      "valgrind",
      ["--tool=callgrind", "--separate-threads=yes", `--callgrind-out-file=${join(dir, "cg.%p")}`, process.execPath, "--single-threaded", fileURLToPath(import.meta.url)],
      { env: { ...process.env, [UNDER]: "1", OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` }, stdio: ["ignore", "inherit", "pipe"], encoding: "utf8" },
    );
    if (run.status !== 0) throw new Error(`the counted run failed: ${run.stderr.slice(-2000)}`);
    // One dump per warm-up figure and thread, numbered in order (cg.<pid>.1-01, .1-02, …; -01 the serving thread).
    const files = readdirSync(dir);
    const int = (n: number) => Math.round(n).toLocaleString("en-US");
    WARM.forEach((warm, k) => {
      let serving = 0;
      let others = 0;
      for (const file of files.filter((name) => name.startsWith(`cg.${run.pid!}.${k + 1}-`))) {
        const instructions = dumpInstructions(readFileSync(join(dir, file), "utf8")) / COUNTED;
        if (file.endsWith("-01")) serving += instructions;
        else others += instructions;
      }
      const perBatch = serving + others;
      console.log(
        `after ${warm} batches: ${int(perBatch)} instructions a batch of ${BATCH} spans (serving thread ${int(serving)}, ` +
          `export thread ${int(others)}), ${int(perBatch / REQUESTS)} a get_task request (${valgrind}; ${COUNTED} counted)`,
      );
    });
  } finally {
    sink.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env[UNDER] !== undefined) await counted();
else await main();
