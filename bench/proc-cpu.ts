import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * Clock ticks per second for /proc times (`getconf CLK_TCK`); 100 on every common Linux,
 * which is also the fallback when getconf is missing.
 */
export function clockTicksPerSecond(): number {
  try {
    const value = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    return Number.isInteger(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
}

/**
 * User + system CPU time of a whole process (every thread: main, libuv pool, GC, workers), in
 * clock ticks, from fields 14 and 15 of /proc/<pid>/stat (proc(5)). The same reading for every
 * server, including the svc server whose code we cannot instrument.
 */
export function readCpuTicks(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    throw new Error(
      `cannot read /proc/${pid}/stat (is this Linux, and is the server still running?): ${(error as Error).message}`,
    );
  }
  // The command name (field 2) is in parentheses and may itself hold spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error(`unexpected /proc/${pid}/stat format: ${stat.slice(0, 200)}`);
  }
  return utime + stime;
}
