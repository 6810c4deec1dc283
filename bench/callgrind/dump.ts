// Reading callgrind's dump files (https://valgrind.org/docs/manual/cl-format.html): which file
// a `callgrind_control -d` wrote, and the instructions (Ir) it counted.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The instructions executed in the interval a dump covers. The `totals:` line (the sum of the
 * file's cost lines, written last) is preferred over the `summary:` header, which client
 * requests can leave off; either holds one figure per event of the `events:` line.
 */
export function dumpInstructions(text: string): number {
  const events = /^events:[ \t]*(.*)$/m.exec(text);
  if (!events) throw new Error("not a callgrind dump: it has no `events:` line");
  const index = events[1].trim().split(/\s+/).indexOf("Ir");
  if (index === -1) throw new Error(`the dump counts no instructions (events: ${events[1].trim()})`);
  const line = /^totals:[ \t]*(.*)$/m.exec(text) ?? /^summary:[ \t]*(.*)$/m.exec(text);
  if (!line) throw new Error("the dump has neither a `totals:` nor a `summary:` line (cut short?)");
  // Events that cost nothing may be left off the end of the line.
  const raw = line[1].trim().split(/\s+/)[index] ?? "0";
  if (!/^\d+$/.test(raw)) throw new Error(`the dump's instruction total is not a number: "${raw}"`);
  return Number(raw);
}

/**
 * The dump number in a file name that `--callgrind-out-file=<dir>/cg.%p` gives a process:
 * `cg.<pid>.<n>` for the n-th dump asked for, `cg.<pid>` for the one at exit (null here).
 * With `--separate-threads=yes` each thread has a file of its own, `cg.<pid>.<n>-<thread>`.
 */
export function dumpNumber(fileName: string, pid: number): number | null {
  const match = /^cg\.(\d+)\.(\d+)(?:-\d+)?$/.exec(fileName);
  if (!match || Number(match[1]) !== pid) return null;
  return Number(match[2]);
}

/** The thread a file of `--separate-threads=yes` counted (1: the process's first, its main thread); null for a file of all threads. */
export function dumpThread(fileName: string): number | null {
  const match = /-(\d+)$/.exec(fileName);
  return match ? Number(match[1]) : null;
}

/** The highest-numbered dump of `pid` among `fileNames`, or null if none is newer than `after`. */
export function newestDump(fileNames: readonly string[], pid: number, after: number): string | null {
  let best: string | null = null;
  let bestNumber = after;
  for (const name of fileNames) {
    const n = dumpNumber(name, pid);
    if (n !== null && n > bestNumber) {
      best = name;
      bestNumber = n;
    }
  }
  return best;
}

/** A whole dump: its files, the instructions of all threads, and of the main thread alone when they were counted apart. */
export interface ReadDump {
  files: string[];
  total: number;
  serving: number | null;
}

/**
 * Dump `n` of `pid` in `dir`, or null while one of its files lacks its `totals:` line (the last
 * one written: the file is still being written). With threads apart (a file each), `serving`
 * is the first thread's, the process's main thread.
 */
export function readDump(dir: string, pid: number, n: number): ReadDump | null {
  const files = readdirSync(dir).filter((file) => dumpNumber(file, pid) === n);
  let total = 0;
  let serving: number | null = null;
  for (const file of files) {
    const text = readFileSync(join(dir, file), "utf8");
    if (!/^totals:/m.test(text)) return null;
    const instructions = dumpInstructions(text);
    total += instructions;
    if (dumpThread(file) === 1) serving = instructions;
  }
  return files.length === 0 ? null : { files, total, serving };
}
