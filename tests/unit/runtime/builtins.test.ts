import { describe, expect, test } from "../../support/jest.js";
import { contains, endsWith, replace, slug, startsWith, substr } from "../../../runtime/lang/builtins.js";
import { HttpError } from "../../../runtime/core/errors.js";
import { join, sort } from "../../../runtime/lang/lists.js";

describe("string builtins", () => {
  test("slug: lowercase ASCII, accents folded, runs of anything else as one -, trimmed", () => {
    expect(slug("How to train your dragon")).toBe("how-to-train-your-dragon");
    expect(slug("  Crème Brûlée -- à la française!  ")).toBe("creme-brulee-a-la-francaise");
    expect(slug("Straße, Æsir, Øresund, Łódź, Þór, smörgåsbord")).toBe("strasse-aesir-oresund-lodz-thor-smorgasbord");
    expect(slug("Ǆemal ﬁnds Ⅻ")).toBe("dzemal-finds-xii");
    expect(slug("日本語 2024")).toBe("2024");
    expect(slug("---")).toBe("");
    expect(slug(null)).toBeNull();
  });

  test("replace: every occurrence; an empty `from` or null reads as empty text", () => {
    expect(replace("a-b-c", "-", "+")).toBe("a+b+c");
    expect(replace("a.b", ".", "$&")).toBe("a$&b");
    expect(replace("abc", "", "x")).toBe("abc");
    expect(replace("a b", " ", null)).toBe("ab");
    expect(replace(null, "a", "b")).toBeNull();
  });

  test("starts_with, ends_with, contains: false for null text; a null part is empty", () => {
    expect([startsWith("hello", "he"), startsWith("hello", "lo"), startsWith(null, "x"), startsWith("x", null)]).toEqual([true, false, false, true]);
    expect([endsWith("hello", "lo"), endsWith("hello", "he"), endsWith(null, "")]).toEqual([true, false, false]);
    expect([contains("hello", "ell"), contains("hello", "z"), contains(null, "")]).toEqual([true, false, false]);
  });

  test("substr counts characters from 0, never splits one, clamps out-of-range bounds", () => {
    expect(substr("hello", 1, 3)).toBe("ell");
    expect(substr("hello", 2)).toBe("llo");
    expect(substr("hello", 2, null)).toBe("llo");
    expect(substr("a😀b", 1, 1)).toBe("😀");
    expect(substr("hello", 9, 2)).toBe("");
    expect(substr("hello", -3, 2)).toBe("he");
    expect(substr("hello", 1, -1)).toBe("");
    expect(substr(null, 0, 1)).toBeNull();
  });

  test("join: items as text, null items and a null separator empty, a null list empty (as for every list builtin)", () => {
    expect(join(["a", "b", "c"], ", ")).toBe("a, b, c");
    expect(join([1, null, true], "-")).toBe("1--true");
    expect(join(["a", "b"], null)).toBe("ab");
    expect(join([], ",")).toBe("");
    expect(join(null, ",")).toBe("");
  });

  test("contains looks into text or a list, whichever it is given", () => {
    expect([contains(["go", "js"], "go"), contains(["go", 1], 1), contains(["go"], "g"), contains(null, "go")]).toEqual([true, true, false, false]);
    expect([contains("go, js", "go"), contains("go", null)]).toEqual([true, true]);
  });

  test("a value that is not text (from a json argument) is a 400, not a TypeError", () => {
    // A list from json reaches join through expect.listOrNull, which names its path; join checks its items.
    for (const f of [() => slug(5 as unknown as string), () => contains({} as unknown as string, "a"), () => contains("abc", 5), () => join([{ a: 1 }], ",", "doc.tags")]) {
      expect(f).toThrow(HttpError);
    }
    expect(() => join([{ a: 1 }], ",", "doc.tags")).toThrow("doc.tags[0] must be text");
    expect(() => contains(5 as unknown as string, "a")).toThrow("contains takes text or a list, found number");
    expect(() => slug(5 as unknown as string)).toThrow("slug takes text, found number");
  });
});

describe("sort", () => {
  test("ascending, as ORDER BY: nulls first, numbers by value, text by code point, false before true", () => {
    expect(sort([10, 9, -1, 2.5, null, 100])).toEqual([null, -1, 2.5, 9, 10, 100]);
    // By code point: "B" (66) before "a" (97); U+1F600 (a surrogate pair in UTF-16) after U+FFFD.
    expect(sort(["b", "a", "B", "\u{1F600}", "\uFFFD", "", "ab"])).toEqual(["", "B", "a", "ab", "b", "\uFFFD", "\u{1F600}"]);
    expect(sort([true, false, true])).toEqual([false, true, true]);
    expect(sort(["2026-01-02T00:00:00.000Z", "2025-12-31T23:59:59.999Z"])).toEqual(["2025-12-31T23:59:59.999Z", "2026-01-02T00:00:00.000Z"]);
  });

  test("a new list; a null list is empty", () => {
    const ids = [3, 1, 2];
    expect(sort(ids)).toEqual([1, 2, 3]);
    expect(ids).toEqual([3, 1, 2]);
    expect(sort(null)).toEqual([]);
  });

  test("a list read from json must hold one kind of single value: else a 400 naming the item", () => {
    expect(sort([2, null, 1], "doc.ids")).toEqual([null, 1, 2]);
    expect(() => sort([1, "2"], "doc.ids")).toThrow("doc.ids[1] must be a number to sort");
    expect(() => sort(["a", 2], "doc.ids")).toThrow("doc.ids[1] must be text to sort");
    expect(() => sort([{ a: 1 }], "doc.ids")).toThrow("doc.ids[0] must be a number, text or a bool to sort");
    expect(() => sort([1, "2"], "doc.ids")).toThrow(HttpError);
  });
});
