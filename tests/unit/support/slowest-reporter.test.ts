// The report that ends every jest run (tests/support/slowest-reporter.ts): the ten slowest
// suites, slowest first, with the summed time of all suites.

import { expect, test } from "../../support/jest.js";
import SlowestSuites, { slowestLines } from "../../support/slowest-reporter.js";

const suite = (name: string, seconds: number) => ({
  testFilePath: `/repo/build/tests/${name}.test.js`,
  perfStats: { start: 1_000_000, end: 1_000_000 + seconds * 1000 },
  numFailingTests: 0,
});

test("ten of twelve suites, slowest first, aligned, with the sum over all twelve", () => {
  const results = Array.from({ length: 12 }, (_, i) => suite(`s${i}`, i + 0.25));
  const lines = slowestLines(results, "/repo");
  expect(lines).toEqual([
    "Slowest 10 of 12 suites (summed suite time 69.0 s):",
    "  11.3 s  build/tests/s11.test.js",
    "  10.3 s  build/tests/s10.test.js",
    "   9.3 s  build/tests/s9.test.js",
    "   8.3 s  build/tests/s8.test.js",
    "   7.3 s  build/tests/s7.test.js",
    "   6.3 s  build/tests/s6.test.js",
    "   5.3 s  build/tests/s5.test.js",
    "   4.3 s  build/tests/s4.test.js",
    "   3.3 s  build/tests/s3.test.js",
    "   2.3 s  build/tests/s2.test.js",
  ]);
});

test("fewer suites than ten: all of them; none: no report", () => {
  expect(slowestLines([suite("b", 1), suite("a", 2)], "/repo")).toEqual([
    "Slowest 2 of 2 suites (summed suite time 3.0 s):",
    "  2.0 s  build/tests/a.test.js",
    "  1.0 s  build/tests/b.test.js",
  ]);
  expect(slowestLines([], "/repo")).toEqual([]);
});

test("as a reporter: printed on stderr when the run completes", () => {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => (written.push(chunk), true)) as typeof process.stderr.write;
  try {
    new SlowestSuites({ rootDir: "/repo" }).onRunComplete(undefined, { testResults: [suite("only", 4)], numTotalTests: 3 });
  } finally {
    process.stderr.write = write;
  }
  expect(written.join("")).toBe("\nSlowest 1 of 1 suites (summed suite time 4.0 s):\n  4.0 s  build/tests/only.test.js\n");
});
