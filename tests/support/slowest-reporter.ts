// A jest reporter (jest.config.js) that ends every run with the ten slowest suites and the
// summed time of all of them: where a run's time goes, without a separate tool. A suite's
// time is its wall time in its worker, from its first line loaded to its last test done.

import { relative } from "node:path";

interface SuiteResult {
  testFilePath: string;
  perfStats: { start: number; end: number };
  numFailingTests: number;
  testExecError?: unknown;
}

interface RunResults {
  testResults: SuiteResult[];
  numTotalTests: number;
}

export const SHOWN = 10;

/** The report's lines: the `SHOWN` slowest suites, slowest first, and the sum over all suites. */
export function slowestLines(results: readonly SuiteResult[], root: string): string[] {
  const timed = results
    .map((r) => ({ path: relative(root, r.testFilePath), seconds: (r.perfStats.end - r.perfStats.start) / 1000 }))
    .filter((r) => Number.isFinite(r.seconds) && r.seconds >= 0);
  if (timed.length === 0) return [];
  const total = timed.reduce((sum, r) => sum + r.seconds, 0);
  const shown = [...timed].sort((a, b) => b.seconds - a.seconds || (a.path < b.path ? -1 : 1)).slice(0, SHOWN);
  const width = Math.max(...shown.map((r) => r.seconds.toFixed(1).length));
  return [
    `Slowest ${shown.length} of ${timed.length} suites (summed suite time ${total.toFixed(1)} s):`,
    ...shown.map((r) => `  ${r.seconds.toFixed(1).padStart(width)} s  ${r.path}`),
  ];
}

export default class SlowestSuites {
  private readonly root: string;

  constructor(globalConfig: { rootDir: string }) {
    this.root = globalConfig.rootDir;
  }

  onRunComplete(_contexts: unknown, results: RunResults): void {
    const lines = slowestLines(results.testResults, this.root);
    if (lines.length > 0) process.stderr.write(`\n${lines.join("\n")}\n`);
  }
}
