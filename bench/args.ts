import { parseArgs } from "node:util";
import { CALLGRIND_FLAGS, CALLGRIND_USAGE, callgrindOptions } from "./callgrind/options.js";
import type { CallgrindOptions } from "./callgrind/options.js";

export interface BenchOptions {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Passed to the svc server as --workers; 1 matches the single-threaded baselines. */
  svcWorkers: number;
  skipSvc: boolean;
  /** Set by --callgrind: instructions per request are counted instead of timing runs. */
  callgrind: CallgrindOptions | null;
}

export const USAGE = `usage: npm run bench -- [options]
  --rounds N        interleaved rounds (default 5, at least 1; 5+ for figures you quote)
  --duration S      seconds per measured run (default 4)
  --warmup S        seconds of warm-up per server and endpoint, not measured (default 2; 0 skips)
  --connections C   concurrent autocannon connections (default 10)
  --svc-workers N   --workers for the svc server (default 1, like the baselines)
  --skip-svc        run the two baselines only
  --help            this text
${CALLGRIND_USAGE}`;

/** Parses the bench's flags; throws an Error whose message says what is wrong. */
export function parseBenchArgs(argv: string[]): BenchOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      rounds: { type: "string" },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      "svc-workers": { type: "string" },
      "skip-svc": { type: "boolean" },
      help: { type: "boolean" },
      ...CALLGRIND_FLAGS,
    },
  });
  if (values.help) return "help";
  const connections = integer("--connections", values.connections, values.callgrind ? 8 : 10, 1, 1000);
  const timed = (["rounds", "duration", "warmup", "svc-workers"] as const).filter((k) => values[k] !== undefined);
  return {
    rounds: integer("--rounds", values.rounds, 5, 1, 100),
    durationSeconds: integer("--duration", values.duration, 4, 1, 600),
    warmupSeconds: integer("--warmup", values.warmup, 2, 0, 600),
    connections,
    svcWorkers: integer("--svc-workers", values["svc-workers"], 1, 1, 256),
    skipSvc: values["skip-svc"] ?? false,
    callgrind: callgrindOptions(
      values,
      connections,
      timed.map((k) => `--${k}`),
    ),
  };
}

/** A whole-number flag of any bench runner: `fallback` when absent, else within min..max or an Error. */
export function integer(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new Error(`${flag} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
