// The flags of the instruction-count mode, shared by `npm run bench` and `bench:backends`.
import { LOG_LEVELS } from "../../runtime/core/log.js";
import { integer } from "../args.js";
import type { SettleRule } from "./settle.js";

export interface CallgrindOptions {
  /** Requests per warm-up batch; batches repeat until the figure settles (settle.ts). */
  warmupRequests: number;
  /** Requests in each counted batch, after the warm-up. */
  requests: number;
  /** Counted batches per server and endpoint; the figure is their median. */
  counts: number;
  settle: SettleRule;
  /** --log-level for the svc server; null runs it at its default (info: the request log on). */
  svcLogLevel: string | null;
  /** Where to keep each measured dump for callgrind_annotate; null deletes them. */
  keepDumps: string | null;
}

/** For node:util parseArgs, next to each runner's own flags. */
export const CALLGRIND_FLAGS = {
  callgrind: { type: "boolean" },
  "warmup-requests": { type: "string" },
  requests: { type: "string" },
  counts: { type: "string" },
  settle: { type: "string" },
  "max-warmups": { type: "string" },
  "svc-log-level": { type: "string" },
  "keep-dumps": { type: "string" },
} as const;

export const CALLGRIND_USAGE = `Instruction counts (valgrind's callgrind; servers one at a time under node --single-threaded):
  --callgrind            count instructions per request instead of timing (needs valgrind)
  --warmup-requests N    requests per warm-up batch (default 2000)
  --requests N           requests in each counted batch (default 3000)
  --counts K             counted batches per server and endpoint; the figure is their median (default 3)
  --settle P             warm-up ends when two batches in a row differ by at most P % (default 2)
  --max-warmups N        warm-up batches at most; past it the figure is flagged unsettled (default 8)
  --svc-log-level L      the svc server's --log-level (default: none given, so info, request log on)
  --keep-dumps DIR       keep each counted dump as DIR/<server>.<endpoint>.callgrind.out.<k>
  --connections C        concurrent autocannon connections (default 8 with --callgrind)`;

type Values = { [K in keyof typeof CALLGRIND_FLAGS]?: K extends "callgrind" ? boolean : string };

/**
 * The callgrind options, or null without --callgrind. `timedFlags` are the timed mode's flags
 * that were given: they mean nothing here (and the counted svc server must be one process), so
 * giving them with --callgrind is an error, as is a callgrind flag without it.
 */
export function callgrindOptions(values: Values, connections: number, timedFlags: string[]): CallgrindOptions | null {
  const own = (Object.keys(CALLGRIND_FLAGS) as (keyof Values)[]).filter(
    (k) => k !== "callgrind" && values[k] !== undefined,
  );
  if (!values.callgrind) {
    if (own.length > 0) throw new Error(`--${own[0]} needs --callgrind`);
    return null;
  }
  if (timedFlags.length > 0)
    throw new Error(`${timedFlags[0]} is a flag of the timed mode; it has no meaning with --callgrind`);
  const warmupRequests = integer("--warmup-requests", values["warmup-requests"], 2000, 1, 10_000_000);
  const requests = integer("--requests", values.requests, 3000, 1, 10_000_000);
  const counts = integer("--counts", values.counts, 3, 1, 100);
  // autocannon gives each connection its share of the amount, and refuses a share of zero.
  for (const [flag, amount] of [
    ["--warmup-requests", warmupRequests],
    ["--requests", requests],
  ] as const) {
    if (amount < connections) throw new Error(`${flag} (${amount}) must be at least --connections (${connections})`);
  }
  const svcLogLevel = values["svc-log-level"] ?? null;
  if (svcLogLevel !== null && !(LOG_LEVELS as readonly string[]).includes(svcLogLevel)) {
    throw new Error(`--svc-log-level must be one of ${LOG_LEVELS.join(", ")}, got "${svcLogLevel}"`);
  }
  if (values["keep-dumps"] === "") throw new Error("--keep-dumps needs a directory");
  return {
    warmupRequests,
    requests,
    counts,
    settle: {
      tolerance: percent("--settle", values.settle, 2) / 100,
      maxBatches: integer("--max-warmups", values["max-warmups"], 8, 1, 1000),
    },
    svcLogLevel,
    keepDumps: values["keep-dumps"] ?? null,
  };
}

function percent(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value > 100)
    throw new Error(`${flag} must be a percentage from 0 to 100, got "${raw}"`);
  return value;
}
