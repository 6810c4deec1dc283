// The one "did you mean" measure every phase's hints use (compiler/diagnostics/did-you-mean.ts).

import { describe, expect, test } from "../../support/jest.js";
import { closest, editDistance } from "../../../compiler/diagnostics/did-you-mean.js";
import { nearestBuiltin } from "../../../compiler/jq/builtins.js";

describe("did you mean", () => {
  test("a swap of two neighbouring letters is one edit; case does not count", () => {
    expect(editDistance("titel", "title")).toBe(1);
    expect(editDistance("Title", "title")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  test("the nearest candidate within a third of the name's letters, ties to the first", () => {
    expect(closest("titel", ["done", "title", "created_at"])).toBe("title");
    expect(closest("ab", ["ax", "ay"])).toBe("ax");
    expect(closest("x", ["title"])).toBeNull();
    // One edit from both; the first listed wins.
    expect(closest("nme", ["name", "nmea"])).toBe("name");
    expect(closest("nme", ["nmea", "name"])).toBe("nmea");
    expect(closest("description", new Set(["descriptoin"]))).toBe("descriptoin");
    expect(closest("abcdef", ["uvwxyz"])).toBeNull();
  });

  test("jq builtins: same arity only, and a tie goes to the case the program wrote", () => {
    expect(nearestBuiltin("lenght", 0)).toBe("length");
    expect(nearestBuiltin("lenght", 1)).not.toBe("length");
    expect(nearestBuiltin("indx", 1)).toBe("index");
    expect(nearestBuiltin("INDX", 1)).toBe("INDEX");
    expect(nearestBuiltin("selct", 1)).toBe("select");
    expect(nearestBuiltin("zzzzzz", 0)).toBeNull();
  });
});
