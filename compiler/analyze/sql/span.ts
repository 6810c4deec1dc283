import type { Position, SqlBody, Span } from "../../parse/ast.js";
import { PositionMap } from "../../parse/positions.js";

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

/** The file position of `offset` in `text`, which starts at `from`: the text's own line and column, moved there. */
function positionAt(text: string, from: Position, offset: number): Position {
  const at = new PositionMap(text).position(offset);
  return {
    offset: from.offset + at.offset,
    line: from.line + at.line - 1,
    column: at.line === 1 ? from.column + at.column - 1 : at.column,
  };
}
