// An SQL body (`{ … }` after `query q(…)` or `sql`) keeps its author's layout: it is
// moved as a block to its new indentation, never rewrapped.

import { dedent } from "../generate/literal.js";
import { sqlLexemes } from "../parse/sql-lex.js";

export interface SqlPlacement {
  /** The indentation of the line the body starts on, in the output. */
  indent: string;
  /** One level of indentation. */
  unit: string;
}

/**
 * The body's lines as they are to be printed: the first continues the line of its `{`,
 * the others stand as they are. A body opened on a line of its own (`{` then a line
 * break) has its lines indented one level in, keeping their indentation relative to each
 * other, and a closing `}` alone on its line goes under the start of the line that opened
 * the body. A body whose SQL starts right after the `{` keeps its lines where they are,
 * since moving them would change their indentation relative to the first.
 */
export function placeSqlBody(image: string, at: SqlPlacement): string[] {
  const lines = image.split("\n");
  if (lines.length === 1) return [image];
  // A line break inside a string or a quoted name is part of the value: nothing moves.
  if (breaksInsideLiteral(image)) return lines;
  const last = lines.length - 1;
  const closesAlone = /^[ \t\r]*\}$/.test(lines[last]);
  const content = lines.slice(1, closesAlone ? last : undefined);
  const opensAlone = lines[0].slice(1).trim() === "";
  const placed = [
    lines[0].trimEnd(),
    ...(opensAlone ? indentBlock(content, at.indent + at.unit) : content.map((l) => l.trimEnd())),
    ...(closesAlone ? [`${at.indent}}`] : []),
  ];
  // The generated server holds the body's text with its common indentation taken away
  // (generate/literal.ts): the new layout must read the same there, or the body stays as written.
  return dedent(inner(placed.join("\n"))) === dedent(inner(image)) ? placed : lines;
}

function inner(body: string): string {
  return body.slice(1, body.endsWith("}") ? -1 : undefined);
}

function indentBlock(lines: string[], indent: string): string[] {
  const common = commonIndentation(lines);
  return lines.map((l) => (l.trim() === "" ? "" : indent + l.slice(common.length).trimEnd()));
}

function commonIndentation(lines: string[]): string {
  let common: string | null = null;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const own = line.slice(0, line.length - line.trimStart().length);
    if (common === null) common = own;
    else {
      let i = 0;
      while (i < common.length && i < own.length && common[i] === own[i]) i++;
      common = common.slice(0, i);
    }
  }
  return common ?? "";
}

function breaksInsideLiteral(image: string): boolean {
  for (const l of sqlLexemes(image, 1)) {
    if (l.kind === "op" || l.kind === "word" || l.kind === "number" || l.kind === "param") continue;
    if (image.slice(l.start, l.end).includes("\n")) return true;
  }
  return false;
}
