// Running a server under callgrind and driving its counters with callgrind_control.
import { execFile, spawnSync } from "node:child_process";
import { readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerSpec } from "../server-process.js";
import { dumpNumber, newestDump, readDump, type ReadDump } from "./dump.js";

/** Start-up under valgrind takes seconds to a minute (every code path is translated once). */
const READY_TIMEOUT_MS = 300_000;
const CONTROL_TIMEOUT_MS = 120_000;
/** callgrind_control returns once the command is taken; the file may land a moment later. */
const DUMP_WAIT_MS = 60_000;

export const INSTALL_HINT =
  "the callgrind mode needs valgrind (valgrind and callgrind_control on PATH); " +
  "install it with `apt-get install valgrind` (Debian, Ubuntu), `dnf install valgrind` (Fedora) " +
  "or `brew install valgrind` (Linux Homebrew), or run without --callgrind";

/** Throws with how to install valgrind when either tool is missing. */
export function requireValgrind(): string {
  const valgrind = spawnSync("valgrind", ["--version"], { encoding: "utf8" });
  const control = spawnSync("callgrind_control", ["--version"], { encoding: "utf8" });
  if (valgrind.error || valgrind.status !== 0 || control.error) throw new Error(INSTALL_HINT);
  return valgrind.stdout.trim();
}

/**
 * `spec` run as `valgrind --tool=callgrind … node --single-threaded <args>`: V8 compiles and
 * collects garbage on helper threads, which valgrind serialises in an order that varies from run
 * to run; with them off a figure repeats within about 2 %. `threadsApart`: the process's own
 * threads (workers, libuv's pool) counted apart, for CallgrindCounters made with it too.
 */
export function underCallgrind(spec: ServerSpec, dumpDir: string, threadsApart = false): ServerSpec {
  return {
    ...spec,
    launcher: [
      "valgrind",
      "--tool=callgrind",
      // Each thread's counts in a file of its own: the serving thread's apart from a worker's.
      ...(threadsApart ? ["--separate-threads=yes"] : []),
      `--callgrind-out-file=${join(dumpDir, "cg.%p")}`,
      process.execPath,
      "--single-threaded",
    ],
    readyTimeoutMs: READY_TIMEOUT_MS,
  };
}

/** One dump's instructions: all threads', and the main thread's alone when they were counted apart (null otherwise). */
export type DumpCount = Pick<ReadDump, "total" | "serving">;

/** Instruction counters of one server running under callgrind. */
export class CallgrindCounters {
  private lastDump = 0;

  /** `threadsApart`: the server was started by underCallgrind with it (a file per thread and dump). */
  constructor(
    private readonly pid: number,
    private readonly dumpDir: string,
    private readonly threadsApart = false,
  ) {}

  /** Sets the counters to zero: what follows is the interval the next dump covers. */
  zero(): Promise<void> {
    return control("-z", this.pid);
  }

  /**
   * Dumps the counters (which also zeroes them) and returns the instructions since the last
   * zero. `keepAs` keeps the dump there (for callgrind_annotate); otherwise it is deleted.
   */
  async dump(keepAs?: string): Promise<number> {
    return (await this.dumpCount(keepAs)).total;
  }

  /** As `dump`, with the main thread's share when the threads are counted apart (kept as `keepAs-01`, `keepAs-02`, …). */
  async dumpCount(keepAs?: string): Promise<DumpCount> {
    await control("-d", this.pid);
    const deadline = Date.now() + DUMP_WAIT_MS;
    let filesBefore = -1;
    for (;;) {
      const newest = newestDump(readdirSync(this.dumpDir), this.pid, this.lastDump);
      const read = newest === null ? null : readDump(this.dumpDir, this.pid, dumpNumber(newest, this.pid)!);
      // Apart, the threads' files come one after another: the dump is whole once no new one
      // came between two looks.
      if (read !== null && (!this.threadsApart || read.files.length === filesBefore)) {
        this.lastDump = dumpNumber(newest!, this.pid)!;
        for (const file of read.files) {
          const path = join(this.dumpDir, file);
          if (keepAs === undefined) rmSync(path);
          else renameSync(path, this.threadsApart ? `${keepAs}${file.slice(file.lastIndexOf("-"))}` : keepAs);
        }
        return { total: read.total, serving: read.serving };
      }
      filesBefore = read?.files.length ?? -1;
      if (Date.now() > deadline) throw new Error(`callgrind wrote no dump for pid ${this.pid} in ${this.dumpDir}`);
      await sleep(100);
    }
  }
}

function control(flag: "-z" | "-d", pid: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("callgrind_control", [flag, String(pid)], { timeout: CONTROL_TIMEOUT_MS }, (error, stdout, stderr) => {
      // It exits 0 even when no process answered; "OK." is its word that the command was taken.
      if (error || !/\bOK\b/.test(stdout)) {
        reject(
          new Error(`callgrind_control ${flag} ${pid} failed: ${error?.message ?? "no OK"}\n${stdout}${stderr}`.trim()),
        );
      } else resolve();
    });
  });
}
