// The formatter over every fixture, example and test project: a fixed point after one pass, the same
// tokens and comments as the source, and the same result from a badly laid out copy.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../../support/jest.js";
import { fileKind, formatSvc, FormatError } from "../../../compiler/fmt/index.js";
import { parseModule, parseRouteFile } from "../../../compiler/parse/index.js";
import { repoRoot } from "../../support/paths.js";
import { corpusFiles, scramble, tokenStream } from "./corpus.js";

const files = corpusFiles();
const COMMENT = /(?:\/\/|#)[^\n]*/g;

describe("svc fmt over fixtures and examples", () => {
  test("there is a corpus", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  test.each(files)("%s", (file) => {
    const source = readFileSync(join(repoRoot, file), "utf8");
    let once: string;
    try {
      once = formatSvc(source, file);
    } catch (e) {
      // Refused only where the parser reports a lexing or syntax error.
      expect(e).toBeInstanceOf(FormatError);
      const parsed = fileKind(file) === "route" ? parseRouteFile(file, source) : parseModule(file, source);
      expect(parsed.diagnostics.some((d) => d.severity === "error" && d.code.startsWith("SVC10"))).toBe(true);
      return;
    }
    expect(formatSvc(once, file)).toBe(once);
    expect(tokenStream(file, once)).toEqual(tokenStream(file, source));
    // Comments: the same ones in the same order (a `#` in a string or SQL counts on both sides alike).
    const comments = (text: string): string[] => withoutStrings(text).match(COMMENT)?.map((c) => c.trimEnd()) ?? [];
    expect(comments(once)).toEqual(comments(source));
    const scrambled = scramble(file, source);
    expect(scrambled).not.toBe(source);
    expect(formatSvc(scrambled, file)).toBe(once);
    // The repository's own fixtures and examples are kept laid out (`svc fmt examples fixtures`).
    if (file.startsWith("fixtures/") || file.startsWith("examples/")) expect(source).toBe(once);
  });
});

/** The text with string literals and SQL bodies blanked, so that only comments match COMMENT. */
function withoutStrings(text: string): string {
  return text.replace(/"(?:[^"\\\n]|\\.)*"/g, '""').replace(/'[^']*'/g, "''").replace(/--[^\n]*/g, "");
}
