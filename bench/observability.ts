// `npm run bench:observability`: what metrics and traces cost per request, in instructions
// (callgrind, as `npm run bench -- --callgrind` counts them; bench/README.md). The same svc
// build of the task tracker runs once per variant, each alone under callgrind on its own copy
// of the seeded database: off (no flag), `--metrics`, and tracing with every request sampled
// (OTEL_TRACES_SAMPLER=always_on, spans exported over OTLP/HTTP to a sink in this process).
// The table gives instructions per request of health, get, list and create and each variant's
// ratio to off (issue 34: off adds nothing; on, at most +15 %).
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
import { countEndpoint, COUNT_METHOD } from "./callgrind/measure.js";
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

const USAGE = `usage: npm run bench:observability -- [options]
  --variants LIST   comma-separated, from off, metrics, traces (default all three)
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
  const variants = (values.variants ?? "off,metrics,traces").split(",");
  for (const v of variants) if (!["off", "metrics", "traces"].includes(v)) throw new Error(`unknown variant ${v}`);
  return {
    bench: { rounds: 1, durationSeconds: 1, warmupSeconds: 0, connections, svcWorkers: 1, skipSvc: false, callgrind: count },
    count,
    variants,
  };
}

/** An OTLP/HTTP receiver that takes every export and answers 200: the spans' cost is the server's, not the sink's. */
function startSink(): Promise<Server> {
  const sink = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "Content-Type": "application/json" }).end("{}"));
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
  const prepared = await prepare(options.bench, paths, tmp, resources, log);
  if (!prepared.svc.ran) throw new Error(`svc did not build: ${prepared.svc.reason}`);
  const seededIds = prepared.tasks.map((task) => task.id);
  const sink = await startSink();
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const all: Variant[] = [
    { name: "off", args: [], env: {} },
    { name: "metrics", args: ["--metrics"], env: {} },
    { name: "traces", args: [], env: { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: "always_on", OTEL_SERVICE_NAME: "bench" } },
  ];
  const records: { variant: string; endpoint: string; perRequest: number; settled: boolean }[] = [];
  try {
    for (const variant of all.filter((v) => options.variants.includes(v.name))) {
      const dbFile = join(tmp, `svc-${variant.name}.db`);
      copyFileSync(prepared.dbFiles.svc!, dbFile);
      const spec = svcSpec(prepared.svc, dbFile, tmp, 1, options.count.svcLogLevel ?? "error");
      spec.args.push(...variant.args);
      log(`svc ${variant.name}: starting under callgrind …`);
      const saved = { ...process.env };
      Object.assign(process.env, variant.env);
      // Loading the OpenTelemetry SDK under valgrind takes minutes more than the rest.
      const launched = { ...underCallgrind(spec, dumpDir), readyTimeoutMs: 15 * 60_000 };
      const server = await startServer(launched, resources).finally(() => {
        for (const key of Object.keys(variant.env)) if (saved[key] === undefined) delete process.env[key];
      });
      await checkServer(server.baseUrl, prepared.tasks);
      trimToSeed(dbFile, seededIds);
      const counters = new CallgrindCounters(server.pid, dumpDir);
      for (const endpoint of COUNTED_ENDPOINTS) {
        const result = await countEndpoint(
          {
            label: `${variant.name} ${endpoint}`,
            server,
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
        records.push({ variant: variant.name, endpoint, perRequest: result.perRequest, settled: result.settled });
        log(`${variant.name} ${endpoint}: ${Math.round(result.perRequest).toLocaleString("en-US")} instructions/request`);
      }
      await server.stop();
    }
  } finally {
    sink.close();
  }
  const variants = [...new Set(records.map((r) => r.variant))];
  const figure = (variant: string, endpoint: string) => records.find((r) => r.variant === variant && r.endpoint === endpoint);
  const lines = [
    `svc instructions per request by variant (callgrind, ${valgrind}; ${options.count.requests} counted, median of ${options.count.counts}); ratio to off`,
    "",
    `| endpoint | ${variants.join(" | ")} |`,
    `|---|${variants.map(() => "---:").join("|")}|`,
    ...COUNTED_ENDPOINTS.map((endpoint) => {
      const off = figure("off", endpoint)?.perRequest;
      const cells = variants.map((v) => {
        const r = figure(v, endpoint);
        if (r === undefined) return "–";
        const ratio = off === undefined || v === "off" ? "" : ` (${(r.perRequest / off).toFixed(3)})`;
        return `${Math.round(r.perRequest).toLocaleString("en-US")}${r.settled ? "" : "*"}${ratio}`;
      });
      return `| ${endpoint} | ${cells.join(" | ")} |`;
    }),
  ];
  process.stdout.write(lines.join("\n") + "\n");
  const file = writeResults(paths.resultsDir, "observability-", startedAt, { startedAt, method: COUNT_METHOD, options: options.count, records });
  log(`\nfull results: ${file}`);
}

runBench({ name: "bench:observability", usage: USAGE, parse, main });
