// Helpers for turning (possibly partial) CST nodes into AST nodes. After error recovery
// a node may lack children the grammar calls mandatory, or hold tokens the parser
// invented (offsets NaN). Such a node cannot become a well-formed AST node: the builder
// throws INCOMPLETE, and the nearest list (declarations, statements, fields…) drops
// that item. The syntax error itself has already been reported by the parser.

import type { CstElement, IToken } from "chevrotain";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Ident, Span } from "./ast.js";
import type { DocComments } from "./docs.js";
import type { PositionMap } from "./positions.js";

/** Per-file state, passed down every visit (the builder itself is shared and stateless). */
export interface BuildContext {
  file: string;
  text: string;
  positions: PositionMap;
  docs: DocComments;
  diagnostics: Diagnostic[];
}

export const INCOMPLETE = Object.freeze({ incomplete: true });

/** The first element, or INCOMPLETE when recovery left it out. */
export function need<T>(items: T[] | undefined): T {
  const first = items?.[0];
  if (first === undefined) throw INCOMPLETE;
  return first;
}

/** Builds each item; an incomplete one is dropped, anything else propagates. */
export function keepComplete<N, T>(items: N[] | undefined, build: (item: N) => T): T[] {
  const out: T[] = [];
  for (const item of items ?? []) {
    try {
      out.push(build(item));
    } catch (e) {
      if (e !== INCOMPLETE) throw e;
    }
  }
  return out;
}

export function isReal(token: IToken): boolean {
  return !token.isInsertedInRecovery && Number.isFinite(token.startOffset);
}

export function tokenSpan(c: BuildContext, token: IToken): Span {
  if (!isReal(token)) throw INCOMPLETE;
  return c.positions.span(token.startOffset, token.endOffset! + 1);
}

export function ident(c: BuildContext, token: IToken): Ident {
  return { name: token.image, span: tokenSpan(c, token) };
}

/**
 * The span from the first to the last real token among the children of a node. Each
 * child list is in source order, so its first and last elements bound it. Tokens
 * invented by recovery have NaN offsets, which no comparison below lets through.
 */
export function childrenSpan(c: BuildContext, children: object): Span {
  let start = Infinity;
  let end = -Infinity;
  for (const list of Object.values(children) as CstElement[][]) {
    for (const element of [list[0], list[list.length - 1]]) {
      if (element === undefined) continue;
      const range = isToken(element) ? (element.isInsertedInRecovery ? undefined : element) : element.location;
      if (range === undefined) continue;
      if (range.startOffset < start) start = range.startOffset;
      if ((range.endOffset ?? NaN) + 1 > end) end = range.endOffset! + 1;
    }
  }
  if (!Number.isFinite(start) || !Number.isFinite(end)) throw INCOMPLETE;
  return c.positions.span(start, end);
}

function isToken(element: CstElement): element is IToken {
  return (element as IToken).tokenType !== undefined;
}
