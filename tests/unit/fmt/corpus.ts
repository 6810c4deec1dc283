// The .svc files of the repository (every fixture and example) for the formatter's
// corpus tests, and a way to lay them out badly without touching what they mean.

import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileKind } from "../../../compiler/fmt/index.js";
import { tokenize } from "../../../compiler/parse/lexer.js";
import { PositionMap } from "../../../compiler/parse/positions.js";
import { repoRoot } from "../../support/paths.js";

/** Every `.svc` file below fixtures/, examples/ and the test projects of tests/, as paths relative to the repository. */
export function corpusFiles(): string[] {
  return ["fixtures", "examples", "tests"].flatMap((dir) => walk(join(repoRoot, dir))).map((f) => relative(repoRoot, f));
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".svc") ? [join(dir, e.name)] : []));
}

/** Token kinds and images, SQL bodies with their whitespace folded: what formatting must keep. */
export function tokenStream(file: string, text: string): string[] {
  const lexed = tokenize(fileKind(file), file, text, new PositionMap(text));
  return lexed.tokens.map((t) =>
    t.tokenType.name === "SqlBody" ? `SqlBody ${t.image.split(/\s+/).filter(Boolean).join(" ")}` : `${t.tokenType.name} ${t.image}`,
  );
}

/**
 * The same file with worse layout: lines indented by a different amount, trailing spaces,
 * blank lines doubled. Lines of a multi-line SQL body, and the line that opens one, are
 * left as they are (their layout is the author's, which the formatter keeps).
 */
export function scramble(file: string, text: string): string {
  const lexed = tokenize(fileKind(file), file, text, new PositionMap(text));
  const keep = new Set<number>();
  const lineOf = (offset: number): number => text.slice(0, offset).split("\n").length - 1;
  for (const t of lexed.tokens) {
    if (t.tokenType.name !== "SqlBody" || !t.image.includes("\n")) continue;
    for (let l = lineOf(t.startOffset); l <= lineOf(t.endOffset!); l++) keep.add(l);
  }
  return text
    .split("\n")
    .map((line, i) => {
      if (keep.has(i)) return line;
      if (line.trim() === "") return "\n";
      const indent = line.length - line.trimStart().length;
      return `${" ".repeat(indent * 2 + 3)}${line.trimStart()}  `;
    })
    .join("\n");
}
