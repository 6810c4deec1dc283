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
}

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
      ...CALLGRIND_FLAGS,
    },
  });
  if (values.help) return "help";
  const counting = values.callgrind === true;
  const connections = integer("--connections", values.connections, counting ? 8 : 10, 1, 1000);
  const timed = (["rounds", "duration", "warmup"] as const).filter((k) => values[k] !== undefined);
  return {
    backends: list("--backends", values.backends, ["postgres", "mysql"] as const, ["postgres", "mysql"]),
    endpoints: counting
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
