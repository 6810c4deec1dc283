// The command line of `npm run bench:backends` (run.ts).
import { parseArgs } from "node:util";
import { integer } from "../args.js";
import { CALLGRIND_FLAGS, CALLGRIND_USAGE, callgrindOptions } from "../callgrind/options.js";
import type { CallgrindOptions } from "../callgrind/options.js";
import type { CountedEndpoint } from "../endpoints.js";
import type { NetBackend } from "./databases.js";

export const USAGE = `usage: npm run bench:backends -- [options]
  --backends LIST    postgres,mysql (default both; a server that does not answer is skipped)
  --endpoints LIST   list_tasks,create_task (default), get_task may be added;
                     with --callgrind the default adds get_task, and health may be added
  --rounds N         interleaved rounds (default 3)
  --duration S       seconds per measured run (default 4)
  --warmup S         seconds of warm-up per server and endpoint (default 2)
  --connections C    concurrent autocannon connections (default 10)
  --help             this text
${CALLGRIND_USAGE}
Garbage collection (V8's --trace-gc-nvp; a fresh server per run, under node --single-threaded):
  --gc               count scavenges, mark-compacts and bytes promoted per request instead of timing
  --gc-runs N        fresh servers per server and endpoint (default 3): the figure varies by process
  --gc-warmup N      requests before the counted ones (default 2000)
  --gc-requests N    requests counted per run (default 20000)
Servers: SVC_BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test),
         SVC_BENCH_MYSQL_URL (default mysql://root@127.0.0.1:3306/test).`;

export interface BackendsOptions {
  backends: NetBackend[];
  endpoints: CountedEndpoint[];
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  /** Set by --callgrind: instructions per request are counted instead of timing runs. */
  callgrind: CallgrindOptions | null;
  /** Set by --gc: garbage collections are counted instead of timing runs. */
  gc: GcOptions | null;
}

export interface GcOptions {
  runs: number;
  warmupRequests: number;
  requests: number;
}

const GC_FLAGS = ["gc-runs", "gc-warmup", "gc-requests"] as const;

const TIMED_ENDPOINTS = ["list_tasks", "get_task", "create_task"] as const;
const COUNTED = ["health", ...TIMED_ENDPOINTS] as const;

/** Parses the flags; throws an Error whose message says what is wrong. */
export function parseBackendsArgs(argv: string[]): BackendsOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      backends: { type: "string" },
      endpoints: { type: "string" },
      rounds: { type: "string" },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      help: { type: "boolean" },
      gc: { type: "boolean" },
      "gc-runs": { type: "string" },
      "gc-warmup": { type: "string" },
      "gc-requests": { type: "string" },
      ...CALLGRIND_FLAGS,
    },
  });
  if (values.help) return "help";
  const gcFlag = GC_FLAGS.find((k) => values[k] !== undefined);
  if (gcFlag !== undefined && !values.gc) throw new Error(`--${gcFlag} needs --gc`);
  if (values.gc && values.callgrind) throw new Error("--gc and --callgrind are two modes; give one");
  const counting = values.callgrind === true;
  const connections = integer("--connections", values.connections, counting || values.gc ? 8 : 10, 1, 1000);
  const timed = (["rounds", "duration", "warmup"] as const).filter((k) => values[k] !== undefined);
  if (values.gc && timed.length > 0)
    throw new Error(`--${timed[0]} is a flag of the timed mode; it has no meaning with --gc`);
  const gc: GcOptions | null = values.gc
    ? {
        runs: integer("--gc-runs", values["gc-runs"], 3, 1, 100),
        warmupRequests: integer("--gc-warmup", values["gc-warmup"], 2000, connections, 10_000_000),
        requests: integer("--gc-requests", values["gc-requests"], 20_000, connections, 10_000_000),
      }
    : null;
  return {
    backends: list("--backends", values.backends, ["postgres", "mysql"] as const, ["postgres", "mysql"]),
    endpoints: counting || values.gc
      ? // Not health by default: svc answers it 503 when the ping takes over 1 s, which a garbage
        // collection under valgrind can make a network ping do (SQLite's ping is synchronous).
        list("--endpoints", values.endpoints, COUNTED, [...TIMED_ENDPOINTS])
      : list("--endpoints", values.endpoints, TIMED_ENDPOINTS, ["list_tasks", "create_task"]),
    rounds: integer("--rounds", values.rounds, 3, 1, 100),
    duration: integer("--duration", values.duration, 4, 1, 600),
    warmup: integer("--warmup", values.warmup, 2, 0, 600),
    connections,
    callgrind: callgrindOptions(
      values,
      connections,
      timed.map((k) => `--${k}`),
    ),
    gc,
  };
}

function list<T extends string>(flag: string, raw: string | undefined, allowed: readonly T[], fallback: T[]): T[] {
  if (raw === undefined) return fallback;
  const items = raw.split(",").map((s) => s.trim());
  const bad = items.filter((i) => !(allowed as readonly string[]).includes(i));
  if (bad.length > 0 || items.length === 0)
    throw new Error(`${flag}: ${bad.join(", ") || "empty"}; use ${allowed.join(", ")}`);
  return [...new Set(items)] as T[];
}
