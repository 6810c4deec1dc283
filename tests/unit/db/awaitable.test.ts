import { describe, expect, test } from "../../support/jest.js";
import { whenRead } from "../../../runtime/db/awaitable.js";

describe("whenRead", () => {
  test("decodes a value at once, and a promise once it settles", async () => {
    const double = (n: number) => n * 2;
    expect(whenRead(21, double)).toBe(42);
    const later = whenRead(Promise.resolve(21), double);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(42);
  });

  test("a rejected read stays rejected, undecoded", async () => {
    let decoded = false;
    const failed = whenRead(Promise.reject(new Error("busy")), () => (decoded = true));
    await expect(failed).rejects.toThrow("busy");
    expect(decoded).toBe(false);
  });
});
