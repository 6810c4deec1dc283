// How a bench runner starts and ends (run.ts, backends/run.ts, pages.ts): the command line,
// then `main`, with every child process and temp dir it made released on every way out, and
// the full results kept as JSON.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Resources } from "./resources.js";

/** Progress and errors go to stderr; stdout carries only the report. */
export const log = (line: string): void => void process.stderr.write(line + "\n");

export interface Runner<Options> {
  /** Opens the failure message: `<name> failed: …`. */
  name: string;
  usage: string;
  /** Returns the options or "help"; throws an Error that says what is wrong with the flags. */
  parse(argv: string[]): Options | "help";
  main(options: Options, resources: Resources): Promise<void>;
}

/**
 * A bad command line exits 2 with the usage; --help prints it. A failure exits 1, a signal 130,
 * both after stopping the servers and removing temp files.
 */
export function runBench<Options>({ name, usage, parse, main }: Runner<Options>): void {
  let options: Options | "help";
  try {
    options = parse(process.argv.slice(2));
  } catch (error) {
    log(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
  if (options === "help") {
    log(usage);
    return;
  }
  const resources = new Resources();
  let interrupted = false;
  const interrupt = (signal: NodeJS.Signals): void => {
    if (interrupted) return;
    interrupted = true;
    log(`\n${signal}: stopping the servers and removing temp files …`);
    void resources.release().finally(() => process.exit(130));
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  // Last resort for any path that skips release(): nothing async runs here, so SIGKILL.
  process.on("exit", () => resources.releaseSync());
  main(options, resources)
    .then(() => resources.release())
    .catch(async (error: Error) => {
      if (interrupted) return;
      log(`${name} failed: ${error.message}`);
      await resources.release();
      process.exitCode = 1;
    });
}

/** Writes `results` to <resultsDir>/<prefix><startedAt>.json and returns the path. */
export function writeResults(resultsDir: string, prefix: string, startedAt: string, results: object): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${prefix}${startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
  return file;
}
