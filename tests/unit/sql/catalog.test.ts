import { describe, expect, test } from "../../support/jest.js";
import { sqlCodes } from "../../../compiler/diagnostics/codes/sql.js";

describe("sql diagnostic catalog", () => {
  const entries = Object.values(sqlCodes);

  test("codes are unique and within SVC3001–SVC3099", () => {
    const list = entries.map((e) => e.code);
    expect(new Set(list).size).toBe(list.length);
    for (const code of list) {
      expect(code).toMatch(/^SVC30\d\d$/);
      expect(Number(code.slice(3))).toBeGreaterThanOrEqual(3001);
    }
  });

  test("every entry has a one-sentence summary", () => {
    for (const e of entries) expect(e.summary).toMatch(/^[A-Z].*\.$/);
  });
});
