// Tests are compiled by `tsc` first (npm test does both) and jest runs the JavaScript:
// no transform step, native ESM (node --experimental-vm-modules).
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
  testTimeout: 60000,
  maxWorkers: 2,
  globalSetup: "<rootDir>/build/tests/support/global-setup.js",
  reporters: ["default", "<rootDir>/build/tests/support/slowest-reporter.js"],
};
