// Reading callgrind's dump files (https://valgrind.org/docs/manual/cl-format.html): which file
// a `callgrind_control -d` wrote, and the instructions (Ir) it counted.

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
 */
export function dumpNumber(fileName: string, pid: number): number | null {
  const match = /^cg\.(\d+)\.(\d+)$/.exec(fileName);
  if (!match || Number(match[1]) !== pid) return null;
  return Number(match[2]);
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
