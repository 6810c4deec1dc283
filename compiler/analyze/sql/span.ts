import type { Position, SqlBody, Span } from "../../parse/ast.js";

/**
 * SQL as the model keeps it (`SqlModel.source`, the body trimmed) and where it is in its
 * file: `params` are the [start, end) offsets of each `@name` in `text`.
 */
export interface SqlText {
  text: string;
  start: Position;
  params: readonly (readonly [number, number])[];
}

/** The body's place as the model records it (`SqlSourceRef.text`), its text trimmed as `SqlModel.source` is. */
export function sqlTextRef(body: SqlBody): { start: Position; params: [number, number][] } {
  const lead = body.text.length - body.text.trimStart().length;
  const base = body.span.start.offset + lead;
  return {
    start: positionIn(body, lead),
    params: body.params.map((p) => [p.span.start.offset - base, p.span.end.offset - base]),
  };
}

/** The body as `SqlText`: its trimmed text and where that is. */
export function sqlText(body: SqlBody): SqlText {
  return { text: body.text.trim(), ...sqlTextRef(body) };
}

/** The file position of an offset inside `body.text`. */
export function positionIn(body: SqlBody, offset: number): Position {
  return positionAt(body.text, body.span.start, offset);
}

/** The file span of `[start, end)` inside `body.text`. */
export function spanIn(body: SqlBody, start: number, end: number): Span {
  return spanAt(body.text, body.span.start, start, end);
}

/** The file span of `[start, end)` inside `sql.text`. */
export function spanInText(sql: SqlText, start: number, end: number): Span {
  return spanAt(sql.text, sql.start, start, end);
}

function spanAt(text: string, from: Position, start: number, end: number): Span {
  return { start: positionAt(text, from, start), end: positionAt(text, from, Math.max(start, end)) };
}

/** The file position of `offset` in `text`, which starts at `from`. */
function positionAt(text: string, from: Position, offset: number): Position {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = from.line;
  let lineStart = -1; // offset in text where the current line starts, -1 while still on the first line
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  const column = lineStart < 0 ? from.column + at : at - lineStart + 1;
  return { offset: from.offset + at, line, column };
}
