// An SQL body (`{ … }` after `query q(…)` or `sql`) keeps its author's layout: it is
// moved as a block to its new indentation, never rewrapped.

import { sqlLexemes } from "../parse/sql-lex.js";

export interface SqlPlacement {
  /** The indentation of the line the body starts on, in the output. */
  indent: string;
  /** One level of indentation. */
  unit: string;
  /** Columns of the opening `{` in the source and in the output. */
  sourceColumn: number;
  outputColumn: number;
}

/**
 * The body's lines as they are to be printed: the first continues the line of its `{`,
 * the others stand as they are. A body opened on a line of its own (`{` then a line
 * break) has its lines indented one level in, keeping their indentation relative to each
 * other; a body whose SQL starts after the `{` moves by as many columns as the `{` moved.
 * A closing `}` alone on its line goes under the start of the line that opened the body.
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
  const moved = opensAlone ? indentBlock(content, at.indent + at.unit) : shiftBlock(content, at.outputColumn - at.sourceColumn);
  return [lines[0].trimEnd(), ...moved, ...(closesAlone ? [`${at.indent}}`] : [])];
}

function indentBlock(lines: string[], indent: string): string[] {
  const common = commonIndentation(lines);
  return lines.map((l) => (l.trim() === "" ? "" : indent + l.slice(common.length).trimEnd()));
}

function shiftBlock(lines: string[], by: number): string[] {
  return lines.map((l) => {
    if (l.trim() === "") return "";
    if (by >= 0) return " ".repeat(by) + l.trimEnd();
    const leading = l.length - l.trimStart().length;
    return l.slice(Math.min(-by, leading)).trimEnd();
  });
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
