// Running a server under callgrind and driving its counters with callgrind_control.
import { execFile, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerSpec } from "../server-process.js";
import { dumpInstructions, dumpNumber, newestDump } from "./dump.js";

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
 * to run; with them off a figure repeats within about 2 %.
 */
export function underCallgrind(spec: ServerSpec, dumpDir: string): ServerSpec {
  return {
    ...spec,
    launcher: [
      "valgrind",
      "--tool=callgrind",
      `--callgrind-out-file=${join(dumpDir, "cg.%p")}`,
      process.execPath,
      "--single-threaded",
    ],
    readyTimeoutMs: READY_TIMEOUT_MS,
  };
}

/** Instruction counters of one server running under callgrind. */
export class CallgrindCounters {
  private lastDump = 0;

  constructor(
    private readonly pid: number,
    private readonly dumpDir: string,
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
    await control("-d", this.pid);
    const deadline = Date.now() + DUMP_WAIT_MS;
    for (;;) {
      const file = newestDump(readdirSync(this.dumpDir), this.pid, this.lastDump);
      if (file !== null) {
        const path = join(this.dumpDir, file);
        const text = readFileSync(path, "utf8");
        // `totals:` is the last line written; without it the file is still being written.
        if (/^totals:/m.test(text)) {
          this.lastDump = dumpNumber(file, this.pid) ?? this.lastDump;
          const instructions = dumpInstructions(text);
          if (keepAs) renameSync(path, keepAs);
          else rmSync(path);
          return instructions;
        }
      }
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
