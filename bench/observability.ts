// `npm run bench:observability`: what metrics and traces cost per request, in instructions
// (callgrind, as `npm run bench -- --callgrind` counts them; bench/README.md). The same svc
// build of the task tracker runs once per variant, in one run of the bench, each alone under
// callgrind on its own copy of the seeded database: off (no flag, no OTEL_*), and on
// (`--metrics`, and traces with every request sampled, OTEL_TRACES_SAMPLER=always_on, spans
// exported over OTLP/HTTP to a sink in this process); `--variants` adds metrics or traces
// alone, `sampled` (metrics, and one trace in ten: parentbased_traceidratio 0.1) or `batched`
// (on, with export batches of 2,048 spans instead of 512). The table
// gives instructions per request of health, get, list and create and each variant's ratio to
// off (issue 34: off adds nothing; on, at most +15 %).
//
// Timers are not request work. The servers run with `--jobs off`: the task tracker's job runner
// and scheduler would poll the database every 200 ms, and no counted request enqueues a job.
// prom-client's event-loop delay monitor still samples every 10 ms: each variant's idle rate
// (instructions per ms with no request) is counted after its endpoints, and each counted batch
// is corrected by that rate times its wall time; the table shows both figures.
//
// Each thread is counted apart (`--separate-threads=yes`): the table's last part is the serving
// thread's alone, the rest of "as counted" being the export thread's (traces) and libuv's pool.
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type BenchOptions, integer } from "./args.js";
import { COUNTED_ENDPOINTS, loadRequests } from "./endpoints.js";
import { benchPaths } from "./paths.js";
import { prepare, svcSpec } from "./prepare.js";
import type { Resources } from "./resources.js";
import { log, runBench, writeResults } from "./runner.js";
import { trimToSeed } from "./seed.js";
import { startServer } from "./server-process.js";
import { checkServer } from "./smoke.js";
import { countEndpoint, COUNT_METHOD, type EndpointCount } from "./callgrind/measure.js";
import { median } from "./summary.js";
import { CALLGRIND_FLAGS, CALLGRIND_USAGE, callgrindOptions, type CallgrindOptions } from "./callgrind/options.js";
import { CallgrindCounters, requireValgrind, underCallgrind } from "./callgrind/valgrind.js";

interface Variant {
  name: string;
  /** Flags after svc's own. */
  args: string[];
  /** Environment of the server for this variant (the rest is the bench's). */
  env: Record<string, string>;
}

interface Options {
  bench: BenchOptions;
  count: CallgrindOptions;
  variants: string[];
}

const VARIANTS = ["off", "on", "metrics", "traces", "sampled", "batched"];
/**
 * Every variant's young generation held at the size a loaded server has natively: semi-spaces
 * of 8 MB (`node --trace-gc-verbose` under autocannon: 8,048 KB available in new space, off
 * and on alike). Under valgrind a server runs some fifty times slower, and V8, which sizes the
 * young generation by the bytes allocated per millisecond, took a traced server's for an idle
 * one's and shrank it: 15 scavenges a batch of 3,000 health requests where the same server
 * natively, or with this, has 2 to 4, at some 600,000 instructions each (bench/README.md).
 */
const YOUNG_GENERATION = ["--min-semi-space-size=8"];
/** How long a variant's idle rate is counted. */
const IDLE_MS = 10_000;
/**
 * How long a variant waits, its last request answered, before its idle rate is counted: the
 * batch span processor's delay (OTEL_BSP_SCHEDULE_DELAY, 5 s) and the time the export thread
 * takes under valgrind to send the spans still gathered. Counted from the last request, that
 * export fell in the idle window, and the idle rate taken off every batch held some of the
 * requests' own work (on's was 584,479 instructions a second against off's 33,723).
 */
const IDLE_AFTER_MS = 9_000;

const USAGE = `usage: npm run bench:observability -- [options]
  --variants LIST   comma-separated, from ${VARIANTS.join(", ")} (default off,on)
  --connections C   concurrent autocannon connections (default 8)
${CALLGRIND_USAGE.split("\n").filter((l) => !l.includes("--callgrind ") && !l.includes("--connections")).join("\n")}`;

function parse(argv: string[]): Options | "help" {
  const { values } = parseArgs({
    args: argv,
    options: { ...CALLGRIND_FLAGS, variants: { type: "string" }, connections: { type: "string" }, help: { type: "boolean" } },
  });
  if (values.help) return "help";
  const connections = integer("--connections", values.connections, 8, 1, 1000);
  const count = callgrindOptions({ ...values, callgrind: true }, connections, [])!;
  const variants = (values.variants ?? "off,on").split(",");
  for (const v of variants) if (!VARIANTS.includes(v)) throw new Error(`unknown variant ${v}`);
  return {
    bench: { rounds: 1, durationSeconds: 1, warmupSeconds: 0, connections, svcWorkers: 1, skipSvc: false, callgrind: count },
    count,
    variants,
  };
}

/**
 * An OTLP/HTTP receiver that takes every export and answers as a collector does: 200 and an
 * empty ExportTraceServiceResponse in protobuf (no bytes). It answered `{}` in JSON before,
 * which the exporter, having sent protobuf, failed to decode on every batch: an exception a
 * batch on the export thread that no collector causes.
 */
function startSink(): Promise<Server> {
  const sink = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "Content-Type": "application/x-protobuf" }).end());
  });
  return new Promise((resolve) => sink.listen(0, "127.0.0.1", () => resolve(sink)));
}

async function main(options: Options, resources: Resources): Promise<void> {
  const valgrind = requireValgrind();
  const startedAt = new Date().toISOString();
  const paths = benchPaths();
  const tmp = mkdtempSync(join(tmpdir(), "svc-bench-obs-"));
  resources.trackDir(tmp);
  const dumpDir = join(tmp, "callgrind");
  mkdirSync(dumpDir);
  const keepDir = options.count.keepDumps === null ? null : resolve(options.count.keepDumps);
  if (keepDir !== null) mkdirSync(keepDir, { recursive: true });
  const prepared = await prepare(options.bench, paths, tmp, resources, log);
  if (!prepared.svc.ran) throw new Error(`svc did not build: ${prepared.svc.reason}`);
  const seededIds = prepared.tasks.map((task) => task.id);
  const sink = await startSink();
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: "always_on", OTEL_SERVICE_NAME: "bench" };
  const all: Variant[] = [
    { name: "off", args: [], env: {} },
    { name: "on", args: ["--metrics"], env: traced },
    { name: "metrics", args: ["--metrics"], env: {} },
    { name: "traces", args: [], env: traced },
    // What the documented way to pay less gives: metrics, and one trace in ten recorded.
    { name: "sampled", args: ["--metrics"], env: { ...traced, OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" } },
    // Every request sampled, in batches four times the default: an OTLP request costs the export
    // thread about as much whatever its size, so each request's share of it is a quarter.
    { name: "batched", args: ["--metrics"], env: { ...traced, OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "2048", OTEL_BSP_MAX_QUEUE_SIZE: "8192" } },
  ];
  const records: Measured[] = [];
  const idleRates = new Map<string, number>();
  try {
    for (const variant of all.filter((v) => options.variants.includes(v.name))) {
      const dbFile = join(tmp, `svc-${variant.name}.db`);
      copyFileSync(prepared.dbFiles.svc!, dbFile);
      const spec = svcSpec(prepared.svc, dbFile, tmp, 1, options.count.svcLogLevel ?? "error");
      // The job runner and scheduler poll the database every 200 ms, request or not, and none of
      // the counted requests enqueues a job: with them the idle correction was most of each
      // figure (17 million instructions a second against 100,000-400,000 a request).
      spec.args.push("--jobs", "off", ...variant.args);
      log(`svc ${variant.name}: starting under callgrind …`);
      const saved = { ...process.env };
      Object.assign(process.env, variant.env);
      // Loading the OpenTelemetry SDK under valgrind takes minutes more than the rest.
      const counted = underCallgrind(spec, dumpDir, true);
      const launched = { ...counted, launcher: [...counted.launcher!, ...YOUNG_GENERATION], readyTimeoutMs: 15 * 60_000 };
      const server = await startServer(launched, resources).finally(() => {
        for (const key of Object.keys(variant.env)) if (saved[key] === undefined) delete process.env[key];
      });
      await checkServer(server.baseUrl, prepared.tasks);
      trimToSeed(dbFile, seededIds);
      const counters = new CallgrindCounters(server.pid, dumpDir, true);
      for (const endpoint of COUNTED_ENDPOINTS) {
        const result = await countEndpoint(
          {
            label: `${variant.name} ${endpoint}`,
            server,
            keepDumpAs: keepDir === null ? undefined : join(keepDir, `${variant.name}.${endpoint}.callgrind.out`),
            counters,
            driverPath: paths.driver,
            requests: loadRequests(endpoint, seededIds),
            afterBatch: () => {
              if (endpoint === "create_task") trimToSeed(dbFile, seededIds);
            },
          },
          { ...options.count, connections: options.bench.connections },
          resources,
          log,
        );
        records.push({ variant: variant.name, endpoint, ...result });
        log(`${variant.name} ${endpoint}: ${Math.round(result.perRequest).toLocaleString("en-US")} instructions/request`);
      }
      // The timers' own cost, the server warm, no request coming and no span left to send.
      await sleep(IDLE_AFTER_MS);
      await counters.zero();
      const started = performance.now();
      await sleep(IDLE_MS);
      const idle = (await counters.dump()) / (performance.now() - started);
      idleRates.set(variant.name, idle);
      log(`${variant.name} idle: ${Math.round(idle * 1000).toLocaleString("en-US")} instructions/s`);
      await server.stop();
    }
  } finally {
    sink.close();
  }
  for (const r of records) r.requestWork = requestWork(r, idleRates.get(r.variant) ?? 0);
  const lines = table(records, idleRates, `callgrind, ${valgrind}; ${options.count.requests} counted, median of ${options.count.counts}`);
  process.stdout.write(lines.join("\n") + "\n");
  const file = writeResults(paths.resultsDir, "observability-", startedAt, { startedAt, method: COUNT_METHOD, idleMs: IDLE_MS, idleRates: Object.fromEntries(idleRates), options: options.count, records });
  log(`\nfull results: ${file}`);
}

interface Measured extends EndpointCount {
  variant: string;
  endpoint: string;
  /** `perRequest` less the idle rate over each batch's wall time: the requests' own instructions. */
  requestWork?: number;
}

/** The median over the counted batches of (instructions − idle rate × wall time) / requests. */
function requestWork(r: EndpointCount, idlePerMs: number): number {
  return median(r.counts.map((perRequest, i) => perRequest - (idlePerMs * r.durationsMs[i]) / r.requests));
}

/** The table: each variant's figure (request work, then as counted) and its ratio to off. */
function table(records: readonly Measured[], idleRates: ReadonlyMap<string, number>, how: string): string[] {
  const variants = [...new Set(records.map((r) => r.variant))];
  const int = (n: number) => Math.round(n).toLocaleString("en-US");
  const figure = (variant: string, endpoint: string) => records.find((r) => r.variant === variant && r.endpoint === endpoint);
  const cell = (variant: string, endpoint: string, pick: (r: Measured) => number): string => {
    const r = figure(variant, endpoint);
    if (r === undefined) return "–";
    const off = figure("off", endpoint);
    const ratio = off === undefined || variant === "off" ? "" : ` (${(pick(r) / pick(off)).toFixed(3)})`;
    return `${int(pick(r))}${r.settled ? "" : "*"}${ratio}`;
  };
  const rows = (pick: (r: Measured) => number) =>
    COUNTED_ENDPOINTS.map((endpoint) => `| ${endpoint} | ${variants.map((v) => cell(v, endpoint, pick)).join(" | ")} |`);
  const head = [`| endpoint | ${variants.join(" | ")} |`, `|---|${variants.map(() => "---:").join("|")}|`];
  return [
    `svc instructions per request by variant (${how}); ratio to off`,
    "",
    "Request work (each batch less the idle rate times its wall time):",
    "",
    ...head,
    ...rows((r) => r.requestWork ?? r.perRequest),
    "",
    "As counted (timers included):",
    "",
    ...head,
    ...rows((r) => r.perRequest),
    "",
    "The serving thread alone, as counted (the rest is the export thread's and libuv's pool's):",
    "",
    ...head,
    ...rows((r) => r.servingPerRequest ?? Number.NaN),
    "",
    `Idle (timers only, instructions per second): ${variants.map((v) => `${v} ${int((idleRates.get(v) ?? 0) * 1000)}`).join(", ")}`,
  ];
}

runBench({ name: "bench:observability", usage: USAGE, parse, main });
