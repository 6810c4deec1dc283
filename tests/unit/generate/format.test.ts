// The formatter thread: prettier's output with the fixed options, concurrent requests kept
// apart, and a source prettier cannot parse rejected with its message instead of hanging.

import { describe, expect, test } from "../../support/jest.js";
import { format, warmFormatter } from "../../../compiler/generate/format.js";

describe("format", () => {
  test("formats with the fixed options: double quotes, semicolons, trailing commas", async () => {
    warmFormatter();
    const out = await format("const a = {x: 'one', y: [1,2,3]}\nexport function f(a:number){return a}");
    expect(out).toBe('const a = { x: "one", y: [1, 2, 3] };\nexport function f(a: number) {\n  return a;\n}\n');
  });

  test("lines past 110 columns are broken, and each call gets its own answer", async () => {
    const long = `const list = [${Array.from({ length: 30 }, (_, i) => `"item${i}"`).join(", ")}];`;
    const [a, b] = await Promise.all([format(long), format("let  b=2")]);
    expect(a.split("\n").every((line) => line.length <= 110)).toBe(true);
    expect(a).toContain('  "item29",\n];');
    expect(b).toBe("let b = 2;\n");
  });

  test("a source prettier cannot parse is an error naming the formatter, not a hang", async () => {
    await expect(format("const = ;")).rejects.toThrow(/prettier could not format the generated server: .*/);
    // The thread survives a failed request.
    expect(await format("x")).toBe("x;\n");
  });
});
