import { fork } from "node:child_process";
import type { DriverMessage, LoadResult, RunMessage } from "./driver-protocol.js";
import type { LoadRequest } from "./endpoints.js";
import { readCpuTicks } from "./proc-cpu.js";
import type { Resources } from "./resources.js";

export interface LoadOptions {
  driverPath: string;
  /** The server process whose CPU time is read around the run. */
  serverPid: number;
  run: Omit<RunMessage, "type">;
}

export interface MeasuredLoad extends LoadResult {
  /** Server user+system CPU clock ticks spent between "go" and the result. */
  serverCpuTicks: number;
}

/**
 * Runs one autocannon load from a fresh driver process and reads the server's CPU time right
 * before the driver starts firing and right after it reports, so driver start-up is not counted.
 */
export function runLoad(options: LoadOptions, resources: Resources): Promise<MeasuredLoad> {
  return new Promise((resolve, reject) => {
    const child = fork(options.driverPath, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    resources.track(child);
    let cpuBefore = 0;
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      outcome();
    };
    child.on("message", (message: DriverMessage) => {
      try {
        if (message.type === "armed") {
          cpuBefore = readCpuTicks(options.serverPid);
          child.send({ type: "go" });
        } else if (message.type === "result") {
          const serverCpuTicks = readCpuTicks(options.serverPid) - cpuBefore;
          settle(() => resolve({ ...message.result, serverCpuTicks }));
        } else {
          settle(() => reject(new Error(`load driver failed: ${message.message}`)));
        }
      } catch (error) {
        child.kill("SIGKILL");
        settle(() => reject(error as Error));
      }
    });
    child.on("error", (error) => settle(() => reject(error)));
    child.on("exit", (code, signal) =>
      settle(() => reject(new Error(`load driver exited (${code ?? signal}) without a result`))),
    );
    child.send({ type: "run", ...options.run });
  });
}

/**
 * Exactly `amount` requests, cycling through `requests`, on `connections` connections to
 * `server`; every one must be answered 2xx. Returns what went wrong (some not answered, or
 * answered otherwise), or null when nothing did.
 */
export async function runAmount(
  driverPath: string,
  server: { pid: number; baseUrl: string },
  requests: LoadRequest[],
  amount: number,
  connections: number,
  resources: Resources,
): Promise<string | null> {
  const load = await runLoad(
    {
      driverPath,
      serverPid: server.pid,
      run: { url: server.baseUrl, connections, durationSeconds: 0, amount, requests },
    },
    resources,
  );
  const failed = load.non2xx + load.errors + load.timeouts;
  return failed > 0 || load.requests !== amount
    ? `${load.requests} of ${amount} requests answered, ${load.non2xx} not 2xx, ${load.errors} errors, ` +
        `${load.timeouts} timeouts (status codes ${JSON.stringify(load.statusCodes)})`
    : null;
}
