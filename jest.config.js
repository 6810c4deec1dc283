// Tests are compiled by `tsc` first (npm test does both) and jest runs the JavaScript:
// no transform step, native ESM (node --experimental-vm-modules).
export default {
  testEnvironment: "node",
  roots: ["<rootDir>/build/tests"],
  testMatch: ["**/*.test.js"],
  transform: {},
  testTimeout: 60000,
  maxWorkers: 2,
};
