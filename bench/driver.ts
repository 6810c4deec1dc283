// The load driver: a separate process running autocannon, so the load generator never shares
// a process (or an event loop) with the server it measures. Spawned by load.ts with an IPC
// channel; see driver-protocol.ts for the handshake.
import { createRequire } from "node:module";
import type { DriverMessage, LoadResult, ParentMessage, RunMessage } from "./driver-protocol.js";

interface Histogram {
  total: number;
}

interface AutocannonResult {
  duration: number;
  requests: Histogram;
  throughput: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonInstance {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}

type Autocannon = (
  options: Record<string, unknown>,
  done: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;

// autocannon ships no types and is CommonJS; require() keeps the one cast in one place.
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

if (!process.send) {
  console.error(
    "driver.js is started by the bench (build/bench/run.js) with an IPC channel; it does nothing on its own",
  );
  process.exit(2);
}

function send(message: DriverMessage): Promise<void> {
  return new Promise((resolve) => {
    process.send?.(message, undefined, {}, () => resolve());
  });
}

/**
 * Response times kept as autocannon measures them (fractional ms from hrtime); its own latency
 * histogram rounds to whole milliseconds, too coarse for sub-millisecond p99s on localhost.
 */
class Latencies {
  private values = new Float64Array(1 << 16);
  private count = 0;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  /** Nearest-rank percentile, p in 0..100. */
  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    const sorted = this.values.subarray(0, this.count).sort();
    return sorted[Math.min(this.count - 1, Math.ceil((p / 100) * this.count) - 1)];
  }
}

function fire(run: RunMessage): Promise<LoadResult> {
  const latencies = new Latencies();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: run.url,
        connections: run.connections,
        ...(run.amount === undefined ? { duration: run.durationSeconds } : { amount: run.amount }),
        requests: run.requests,
        // A slow server must show up as latency, not as a driver that gives up early.
        timeout: 30,
      },
      (error, result) => {
        if (error) return reject(error);
        const statusCodes: Record<string, number> = {};
        for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count;
        resolve({
          requests: result.requests.total,
          durationSeconds: result.duration,
          latencyP50Ms: latencies.percentile(50),
          latencyP99Ms: latencies.percentile(99),
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          bytes: result.throughput.total,
          statusCodes,
        });
      },
    );
    instance.on("response", (_client, _status, _bytes, ms) => latencies.add(ms));
  });
}

let pending: RunMessage | undefined;

process.on("message", (message: ParentMessage) => {
  if (message.type === "run") {
    pending = message;
    void send({ type: "armed" });
  } else if (message.type === "go" && pending) {
    const run = pending;
    pending = undefined;
    fire(run)
      .then((result) => send({ type: "result", result }))
      .catch((error: Error) => send({ type: "failed", message: error.message }))
      .finally(() => process.disconnect());
  }
});

// Without a parent there is nothing to do; with one gone, nothing to report to.
process.on("disconnect", () => process.exit(0));
