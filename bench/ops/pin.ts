// CPU pinning with taskset(1), so the load generator and the server do not compete for the
// same cores. Children inherit the affinity of the process that starts them, so the bench
// pins itself to the server's cores before starting the server, and to the driver's core
// before starting a driver.
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

export interface Pinning {
  server: string;
  driver: string;
  all: string;
}

/**
 * Core 0 for the load generator and the rest for the server, when there are at least three
 * cores and taskset works; otherwise null and the reason.
 */
export function planPinning(wanted: boolean): Pinning | { reason: string } {
  const cores = availableParallelism();
  if (!wanted) return { reason: "pinning turned off (--no-pin)" };
  if (cores < 3) {
    return {
      reason: `${cores} cores: the load generator cannot have a core of its own while two workers have one each`,
    };
  }
  const probe = spawnSync("taskset", ["-p", String(process.pid)], { encoding: "utf8" });
  if (probe.status !== 0) return { reason: "taskset is not available" };
  return { server: `1-${cores - 1}`, driver: "0", all: `0-${cores - 1}` };
}

/** Sets this process's (every thread's) CPU list; children started afterwards inherit it. */
export function pinSelf(cpuList: string): void {
  const r = spawnSync("taskset", ["-a", "-p", "-c", cpuList, String(process.pid)], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`taskset -c ${cpuList} failed: ${r.stderr.trim()}`);
}
