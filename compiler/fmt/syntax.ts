// What the formatter reads of a file: its tokens, its comments (which the lexer skips, so
// they are found again in the gaps between tokens) and, from the CST, which node each
// token belongs to. No printer knows a construct by name: layout follows the nesting.

import type { CstElement, CstNode, IToken } from "chevrotain";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { parseCst } from "../parse/index.js";
import type { FileKind } from "../parse/lexer.js";

/** A `#`, `//` or `///` comment: it runs to the end of its line. */
export interface Comment {
  text: string;
  start: number;
  end: number;
}

/** A token or a comment, in source order, with the line breaks before it in the source. */
export type Element = ({ kind: "token"; token: IToken } | { kind: "comment"; comment: Comment }) & {
  start: number;
  newlinesBefore: number;
};

export interface Syntax {
  text: string;
  tokens: IToken[];
  elements: Element[];
  root: CstNode;
  /** The node that holds a token as a direct child. */
  parentOf: Map<IToken, CstNode>;
  nodeParent: Map<CstNode, CstNode>;
  /** The nodes whose first token this is, outermost first. */
  startsAt: Map<IToken, CstNode[]>;
}

export type ReadResult = { syntax: Syntax; diagnostics: [] } | { syntax: null; diagnostics: Diagnostic[] };

/** A route file (`route.svc` anywhere) has its own grammar; every other `.svc` file is a module file. */
export function fileKind(file: string): FileKind {
  return /(^|[\\/])route\.svc$/.test(file) ? "route" : "module";
}

/** Lexes and parses; any lexing or syntax error means there is nothing safe to format. */
export function readSyntax(kind: FileKind, file: string, text: string): ReadResult {
  const parsed = parseCst(kind, file, text);
  if ("failure" in parsed) return { syntax: null, diagnostics: [parsed.failure] };
  if (parsed.diagnostics.length) return { syntax: null, diagnostics: parsed.diagnostics };
  return { syntax: describeSyntax(text, parsed.tokens, parsed.docs, parsed.cst), diagnostics: [] };
}

/** The formatter's view of a parsed file: exported so that a test can lay out a grammar svc does not have yet. */
export function describeSyntax(text: string, tokens: IToken[], docs: IToken[], root: CstNode): Syntax {
  const parentOf = new Map<IToken, CstNode>();
  const nodeParent = new Map<CstNode, CstNode>();
  const startsAt = new Map<IToken, CstNode[]>();
  const byOffset = new Map(tokens.map((t) => [t.startOffset, t]));
  const visit = (node: CstNode): void => {
    const first = byOffset.get(node.location?.startOffset ?? NaN);
    if (first) {
      const list = startsAt.get(first) ?? [];
      list.push(node);
      startsAt.set(first, list);
    }
    for (const children of Object.values(node.children)) {
      for (const child of children as CstElement[]) {
        if ("children" in child) {
          nodeParent.set(child, node);
          visit(child);
        } else {
          parentOf.set(child, node);
        }
      }
    }
  };
  visit(root);
  return { text, tokens, elements: elements(text, tokens, docs), root, parentOf, nodeParent, startsAt };
}

/** Only whitespace and line comments lie between tokens (the lexer skips nothing else). */
const GAP_COMMENT = /(?:\/\/|#)[^\r\n]*/g;

function elements(text: string, tokens: IToken[], docs: IToken[]): Element[] {
  const solid: Element[] = [
    ...tokens.map((token) => ({ kind: "token" as const, token, start: token.startOffset, newlinesBefore: 0 })),
    ...docs.map((d) => ({
      kind: "comment" as const,
      comment: { text: d.image, start: d.startOffset, end: d.endOffset! + 1 },
      start: d.startOffset,
      newlinesBefore: 0,
    })),
  ].sort((a, b) => a.start - b.start);
  const out: Element[] = [];
  let from = 0;
  for (const element of [...solid, null]) {
    const to = element ? element.start : text.length;
    let last = from;
    for (const m of text.slice(from, to).matchAll(GAP_COMMENT)) {
      const start = from + m.index;
      out.push({ kind: "comment", comment: { text: m[0], start, end: start + m[0].length }, start, newlinesBefore: newlines(text, last, start) });
      last = start + m[0].length;
    }
    if (!element) break;
    out.push({ ...element, newlinesBefore: newlines(text, last, to) });
    from = element.kind === "token" ? element.token.endOffset! + 1 : element.comment.end;
  }
  return out;
}

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
