import { describe, expect, test } from "../../support/jest.js";
import { readFileSync } from "node:fs";
import { parseCodes } from "../../../compiler/diagnostics/codes/parse.js";
import { CST_TYPES_PATH, cstTypesSource } from "../../../compiler/parse/cst-types-gen.js";
import { SvcParser } from "../../../compiler/parse/parser.js";

describe("grammar", () => {
  test("passes Chevrotain's validations (no ambiguity, no left recursion)", () => {
    // The shared instance skips them to start faster; this is where they run.
    expect(() => new SvcParser({ validate: true })).not.toThrow();
  });

  test("the committed CST types match the grammar (regenerate with cst-types-gen.js)", () => {
    expect(readFileSync(CST_TYPES_PATH, "utf8")).toBe(cstTypesSource());
  });
});

describe("parse diagnostics catalog", () => {
  const entries = Object.values(parseCodes);

  test("codes are unique and within SVC1001–SVC1099", () => {
    const codes = entries.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      expect(code).toMatch(/^SVC10\d\d$/);
      expect(Number(code.slice(3))).toBeGreaterThanOrEqual(1001);
    }
  });

  test("every entry has a summary and makes a diagnostic with its code", () => {
    for (const entry of entries) {
      expect(entry.summary.length).toBeGreaterThan(10);
      const d = (entry.at as (file: string, span: null, ...args: string[]) => ReturnType<typeof entry.at>)("f.svc", null, "x", "y");
      expect(d).toMatchObject({ code: entry.code, severity: entry.severity, file: "f.svc", span: null });
      expect(d.message.length).toBeGreaterThan(0);
    }
  });
});
