// What tests/support/jest.ts enforces that the runner does not: a test or hook that never
// settles fails with a message naming it, one that settles is left as it was, and a test
// that asked for a number of assertions fails unless it made them.

import { counted, describe, expect, test, timed } from "../../support/jest.js";

/** What `run` settled with: its value, or the message of its error without its colours. */
async function settled(run: () => Promise<unknown>): Promise<{ value: unknown } | { error: string }> {
  return run().then(
    (value) => ({ value }),
    (err: unknown) => ({ error: (err instanceof Error ? err.message : String(err)).replace(/\x1b\[[0-9;]*m/g, "") }),
  );
}

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

describe("the test API's count of assertions", () => {
  // Each function is run to the end before this test asserts anything: an assertion of this
  // test's own made meanwhile would count toward the function's.
  test("a test that asked for more assertions than it made fails; one that made them passes", async () => {
    const short = await settled(
      counted(async () => {
        expect.assertions(2);
        expect(1).toBe(1);
      }),
    );
    const none = await settled(
      counted(async () => {
        expect.hasAssertions();
      }),
    );
    const enough = await settled(
      counted(async () => {
        expect.assertions(1);
        expect(2).toBe(2);
        return "done";
      }),
    );
    expect(short).toEqual({ error: expect.stringMatching(/Expected two assertions to be called but received one assertion call/) });
    expect(none).toEqual({ error: expect.stringMatching(/Expected at least one assertion to be called but received none/) });
    expect(enough).toEqual({ value: "done" });
  });
});
