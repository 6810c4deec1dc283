// The compiled subset is listed once for analysis (subset.ts) and once for emission
// (emit-builtins.ts); the two must agree, and the differential programs must use each.

import { describe, expect, test } from "../../support/jest.js";
import { EMITTED_BUILTINS } from "../../../compiler/generate/jq/emit-builtins.js";
import { SUBSET } from "../../../compiler/jq/subset.js";
import { PAGE_PROGRAMS, SUBSET_PROGRAMS } from "./programs.js";

describe("the compiled subset", () => {
  test("analysis and emission list the same builtins", () => {
    expect([...SUBSET.keys()].sort()).toEqual([...EMITTED_BUILTINS].sort());
  });

  test("every builtin of the subset is exercised by a differential program", () => {
    const text = [...PAGE_PROGRAMS, ...SUBSET_PROGRAMS].join("\n");
    const missing = [...SUBSET.keys()].map((sig) => sig.split("/")[0]).filter((name) => !new RegExp(`\\b${name}\\b`).test(text));
    expect(missing).toEqual([]);
  });
});
