import type { Position, SqlBody, Span } from "../../parse/ast.js";

/** The file position of an offset inside `body.text`. */
export function positionIn(body: SqlBody, offset: number): Position {
  const at = Math.max(0, Math.min(offset, body.text.length));
  const start = body.span.start;
  let line = start.line;
  let lineStart = -1; // offset in text where the current line starts, -1 while still on the body's first line
  for (let i = 0; i < at; i++) {
    if (body.text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  const column = lineStart < 0 ? start.column + at : at - lineStart + 1;
  return { offset: start.offset + at, line, column };
}

/** The file span of `[start, end)` inside `body.text`. */
export function spanIn(body: SqlBody, start: number, end: number): Span {
  return { start: positionIn(body, start), end: positionIn(body, Math.max(start, end)) };
}
