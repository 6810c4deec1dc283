import { describe, expect, test } from "../../support/jest.js";
import { takeRows } from "../../../runtime/db/postgres/rows.js";

class Result extends Array<unknown> {
  count = 0;
  command = "SELECT";
}

describe("takeRows", () => {
  test("copies the rows in order into a plain array and empties the driver's result", () => {
    const a = { id: 1 };
    const b = { id: 2 };
    const result = new Result();
    result.push(a, b);
    const rows = takeRows(result);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toBe(a);
    expect(rows[1]).toBe(b);
    expect(rows).not.toBeInstanceOf(Result);
    expect(Object.getPrototypeOf(rows)).toBe(Array.prototype);
    expect(result).toHaveLength(0);
    // What postgres.js put beside the rows stays (run reads count before rows are taken).
    expect(result.command).toBe("SELECT");
  });

  test("an empty result gives an empty array", () => {
    expect(takeRows(new Result())).toEqual([]);
  });
});
