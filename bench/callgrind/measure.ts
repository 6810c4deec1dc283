// One server, one endpoint: warm up in batches until the instructions per request settle, then
// count N requests between `callgrind_control -z` and `-d`. Load comes from autocannon in a
// separate driver process (load.ts), in amount mode: exactly so many requests.
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { LoadRequest } from "../endpoints.js";
import { runAmount } from "../load.js";
import type { Resources } from "../resources.js";
import type { RunningServer } from "../server-process.js";
import type { CallgrindOptions } from "./options.js";
import { median } from "../summary.js";
import { settleVerdict } from "./settle.js";
import type { CallgrindCounters } from "./valgrind.js";

/**
 * After the last answer, the server still handles the driver's closing connections; this idle
 * wait lets that finish inside the counted interval every time rather than only sometimes.
 */
const QUIET_MS = 500;

/** How a count is taken, for the results file. */
export const COUNT_METHOD = [
  "Each server runs alone as `valgrind --tool=callgrind node --single-threaded …` (V8's helper threads off,",
  "so counts repeat). Per endpoint, warm-up batches of W requests (each counted between callgrind_control -z",
  "and -d) repeat until two in a row agree within the settle tolerance; then K counted batches follow: each",
  "zeroes the counters, sends N requests by autocannon (amount mode) from a separate driver process, dumps",
  "the counters and divides the dump's total instructions (Ir, all threads) by N. The figure is the median",
  "of the K batches. Every answer must be 2xx.",
].join(" ");

export interface EndpointCount {
  /** Instructions per request of each warm-up batch, in order; null where some request failed. */
  warmups: (number | null)[];
  /** Whether the last two warm-up batches agreed within the rule's tolerance. */
  settled: boolean;
  /**
   * Whether the figure (the median) agrees with the last warm-up batch within the tolerance. It
   * may not when major garbage collections (main-thread under --single-threaded) fall in the
   * counted batches and not the warm-up, or the other way round.
   */
  matchesWarmup: boolean;
  /** Requests in each counted batch (all answered 2xx). */
  requests: number;
  /** Instructions per request of each counted batch, in order. */
  counts: number[];
  /** Wall time of each counted batch, zero to dump (ms): what a timer's cost over the batch scales with. */
  durationsMs: number[];
  /** The median of `counts`: one batch that caught a major collection does not make the figure. */
  perRequest: number;
  /** The main thread's share of each counted batch, per request, when the threads were counted apart (CallgrindCounters); null otherwise. */
  servingCounts: number[] | null;
  /** The median of `servingCounts`. */
  servingPerRequest: number | null;
}

export interface CountTarget {
  label: string;
  server: RunningServer;
  counters: CallgrindCounters;
  driverPath: string;
  requests: LoadRequest[];
  /** Runs after every batch, outside the counted interval (create_task's rows are deleted). */
  afterBatch(): Promise<void> | void;
  /** Keeps the counted dump at this path. */
  keepDumpAs?: string;
}

export async function countEndpoint(
  target: CountTarget,
  options: CallgrindOptions & { connections: number },
  resources: Resources,
  log: (line: string) => void,
): Promise<EndpointCount> {
  const warmups: (number | null)[] = [];
  for (;;) {
    const warm = await batch(target, options.warmupRequests, options.connections, resources);
    if (warm.failure === null) {
      warmups.push(warm.instructions / options.warmupRequests);
      log(
        `  ${target.label}: warm-up ${warmups.length}: ${int(warm.instructions / options.warmupRequests)} instructions/request`,
      );
    } else {
      warmups.push(null);
      log(`  ${target.label}: warm-up ${warmups.length} had failures, not used to judge settling: ${warm.failure}`);
    }
    const verdict = settleVerdict(warmups, options.settle);
    if (verdict === "more") continue;
    if (verdict === "gave-up")
      log(`  ${target.label}: NOT SETTLED after ${warmups.length} warm-up batches; counting anyway`);
    const counts: number[] = [];
    const servingCounts: number[] = [];
    const durationsMs: number[] = [];
    for (let k = 0; k < options.counts; k++) {
      const keep = target.keepDumpAs === undefined ? undefined : `${target.keepDumpAs}.${k + 1}`;
      const counted = await batch(target, options.requests, options.connections, resources, keep);
      // A count over failed requests would measure the failure path: no figure at all is better.
      if (counted.failure !== null) throw new Error(`${target.label}: ${counted.failure}`);
      counts.push(counted.instructions / options.requests);
      if (counted.serving !== null) servingCounts.push(counted.serving / options.requests);
      durationsMs.push(counted.durationMs);
      if (options.counts > 1) log(`  ${target.label}: count ${k + 1}: ${int(counts[k])} instructions/request`);
    }
    const perRequest = median(counts);
    const last = warmups[warmups.length - 1];
    const matchesWarmup = last !== null && Math.abs(perRequest - last) <= options.settle.tolerance * last;
    if (!matchesWarmup) log(`  ${target.label}: the count differs from the last warm-up by more than the tolerance`);
    return {
      warmups,
      settled: verdict === "settled",
      matchesWarmup,
      requests: options.requests,
      counts,
      durationsMs,
      perRequest,
      servingCounts: servingCounts.length === counts.length ? servingCounts : null,
      servingPerRequest: servingCounts.length === counts.length ? median(servingCounts) : null,
    };
  }
}

const int = (value: number): string => Math.round(value).toLocaleString("en-US");

/**
 * Sends `amount` requests between a zero and a dump; returns the instructions counted (and the
 * main thread's, counted apart) and, if any request failed (not answered, or answered other
 * than 2xx), what went wrong.
 */
async function batch(
  target: CountTarget,
  amount: number,
  connections: number,
  resources: Resources,
  keepDumpAs?: string,
): Promise<{ instructions: number; serving: number | null; failure: string | null; durationMs: number }> {
  await target.counters.zero();
  const started = performance.now();
  const failure = await runAmount(target.driverPath, target.server, target.requests, amount, connections, resources);
  await sleep(QUIET_MS);
  const { total: instructions, serving } = await target.counters.dumpCount(keepDumpAs);
  const durationMs = performance.now() - started;
  await target.afterBatch();
  return { instructions, serving, failure, durationMs };
}
