// tests/support/jest.ts enforces the time limit the runner does not: a test or hook that never
// settles fails with a message naming it, and one that settles is left as it was.

import { describe, expect, test, timed } from "../../support/jest.js";

describe("the test API's time limit", () => {
  test("a function that never settles fails once its limit passes, naming what timed out", async () => {
    const never = timed(() => new Promise<void>(() => undefined), 50, 'test "hangs"');
    await expect(never()).rejects.toThrow('test "hangs" did not finish within 50 ms');
  });

  test("a function that settles keeps its value, its error and its arguments", async () => {
    const add = timed(async (a: number, b: number) => a + b, 1_000, "add");
    await expect(add(2, 3)).resolves.toBe(5);
    const fails = timed(() => Promise.reject(new Error("its own error")), 1_000, "fails");
    await expect(fails()).rejects.toThrow("its own error");
    const throws = timed(() => {
      throw new Error("thrown at once");
    }, 1_000, "throws");
    await expect(throws()).rejects.toThrow("thrown at once");
  });
});
