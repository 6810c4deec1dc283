// The command line of `npm run bench:tfb`.
import { parseArgs } from "node:util";
import { integer } from "../args.js";
import { CALLGRIND_FLAGS, CALLGRIND_USAGE, callgrindOptions } from "../callgrind/options.js";
import type { CallgrindOptions } from "../callgrind/options.js";
import { TARGETS } from "./targets.js";
import { TEST_TYPES, type TestType } from "./verify.js";

export interface TfbOptions {
  /** Asked for by name: one that cannot run is an error. Null: every target that can run. */
  targets: string[] | null;
  tests: TestType[];
  /** Ratios are each target ÷ this one. */
  reference: string | null;
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  /** `queries=` of /queries and /updates. */
  queries: number;
  /** PostgreSQL server; each target gets a schema of its own there. */
  db: string;
  callgrind: CallgrindOptions | null;
}

export const USAGE = `usage: npm run bench:tfb -- [options]
  --targets a,b      implementations to run (${TARGETS.map((t) => t.name).join(", ")}; default: every one that can run)
  --tests a,b        test types (default: ${TEST_TYPES.join(",")})
  --reference NAME   ratios are each target ÷ this one (default: svc when it runs, else fastify)
  --rounds N         interleaved rounds, the order rotated each round (default 3)
  --duration S       seconds per measured run (default 4)
  --warmup S         seconds of warm-up per target and test type (default 2; 0 skips)
  --connections C    concurrent connections (default 16)
  --queries N        queries= of /queries and /updates (default 20, TFB's highest level)
  --db URL           the PostgreSQL server (default $SVC_BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/test)
  --help             this text
${CALLGRIND_USAGE}`;

function list<T extends string>(flag: string, raw: string | undefined, known: readonly T[]): T[] | null {
  if (raw === undefined) return null;
  const items = raw.split(",").filter(Boolean);
  for (const item of items) if (!known.includes(item as T)) throw new Error(`${flag}: unknown "${item}" (one of ${known.join(", ")})`);
  if (items.length === 0) throw new Error(`${flag} needs at least one name`);
  return items as T[];
}

export function parseTfbArgs(argv: string[]): TfbOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      targets: { type: "string" },
      tests: { type: "string" },
      reference: { type: "string" },
      rounds: { type: "string" },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      queries: { type: "string" },
      db: { type: "string" },
      help: { type: "boolean" },
      ...CALLGRIND_FLAGS,
    },
  });
  if (values.help) return "help";
  const names = TARGETS.map((t) => t.name);
  const connections = integer("--connections", values.connections, values.callgrind ? 8 : 16, 1, 1000);
  const timed = (["rounds", "duration", "warmup"] as const).filter((k) => values[k] !== undefined);
  const reference = values.reference ?? null;
  if (reference !== null && !names.includes(reference)) throw new Error(`--reference: unknown "${reference}" (one of ${names.join(", ")})`);
  return {
    targets: list("--targets", values.targets, names),
    tests: list("--tests", values.tests, TEST_TYPES) ?? [...TEST_TYPES],
    reference,
    rounds: integer("--rounds", values.rounds, 3, 1, 100),
    duration: integer("--duration", values.duration, 4, 1, 600),
    warmup: integer("--warmup", values.warmup, 2, 0, 600),
    connections,
    queries: integer("--queries", values.queries, 20, 1, 500),
    db: values.db ?? process.env.SVC_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    callgrind: callgrindOptions(values, connections, timed.map((k) => `--${k}`)),
  };
}
