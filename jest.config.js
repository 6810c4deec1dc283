// Tests are compiled by `tsc` first (npm test does both) and jest runs the JavaScript:
// no transform step, native ESM.
//
// The runner is jest-light-runner: each suite is imported natively in one of `maxWorkers`
// worker threads, which keep what they loaded (the compiler, the runtime, TypeScript) from
// one suite to the next, instead of Jest's default of a fresh module registry per suite,
// which loaded them again in each of the ~290 suites. Suites import the test API from
// tests/support/jest.ts, which also does what this runner does not: the time limit of a test
// or hook (TEST_TIMEOUT_MS there: this runner reads no `testTimeout`) and `expect.assertions`.
// A worker's globals and loaded modules are shared by the suites it runs, so a suite restores
// what it changes (environment variables, fake timers).
//
// `npm test` runs every suite but the long differential corpora (`*.corpus.test.ts`), which
// `npm run test:corpora` runs (jest.corpora.config.js); CI (.ci/run) runs both. Each run
// starts by emptying the build cache the suites share (tests/support/build-cache.ts) and ends
// with the ten slowest suites (tests/support/slowest-reporter.ts).
export default {
  testEnvironment: "node",
  roots: ["<rootDir>/build/tests"],
  testMatch: ["**/*.test.js"],
  testPathIgnorePatterns: ["/node_modules/", "\\.corpus\\.test\\.js$"],
  transform: {},
  runner: "jest-light-runner",
  // Six suites at a time on two cores: most suites spend most of their time waiting (on a
  // server they started, a database, a timer), and with two workers the cores stood idle for
  // half of the run (453 s wall for 465 s of CPU). Six keep them busy. A busy core makes a test
  // slower, and its time limit (tests/support/jest.ts: 60 s unless it says otherwise) is far
  // above what it takes.
  maxWorkers: 6,
  // Jest's default runner ends its worker processes once the run is over, whatever a suite
  // left running; this runner's worker threads live in Jest's own process, which exits the
  // same way only when told to.
  forceExit: true,
  globalSetup: "<rootDir>/build/tests/support/global-setup.js",
  reporters: ["default", "<rootDir>/build/tests/support/slowest-reporter.js"],
};
