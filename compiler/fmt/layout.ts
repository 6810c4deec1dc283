// The layout: the author's line breaks stay (blank lines fold to one), indentation and the
// spaces within a line are recomputed. A handful of rules, all driven by brackets and the
// CST's nesting rather than by construct, so that syntax added later lays out sensibly:
//
// - a line is indented one level per bracket ({ ( [) open at its start, counted once
//   per line that opens them; a line starting with a closer goes back to its opener's line;
// - a line that continues an item (not the start of a statement, member, entry, argument
//   or declaration) is indented one more level;
// - an opening `{` (an SQL body too) that continues its line joins it, as does `else`
//   after `}`;
// - in brackets that hold a line break, each item that is not after a comma starts a
//   line, and the closer stands on a line of its own;
// - comments stay where they are, on their own line or after code.

import type { CstNode, IToken } from "chevrotain";
import { Comma, Else, LBrace, LBracket, LParen, RBrace, RBracket, RParen, SqlBody } from "../parse/tokens.js";
import { spaceBetween } from "./spacing.js";
import { placeSqlBody } from "./sql-body.js";
import type { Element, Syntax } from "./syntax.js";

interface Frame {
  opener: IToken | null;
  /** The CST node whose items the bracket holds (the node with the opener as a child). */
  owner: CstNode;
  /** Indentation levels of the opener's line and of the items inside. */
  base: number;
  inner: number;
  /** Holds a line break: its items, and its closer, then each start a line. */
  multiline: boolean;
}

/** One output line; a raw one (from an SQL body) carries its own indentation. */
interface Line {
  indent: number;
  text: string;
  raw: boolean;
}

const OPENERS = [LParen, LBracket, LBrace];
const CLOSERS = [RParen, RBracket, RBrace];

export const INDENT = "  ";

export function layout(syntax: Syntax): string {
  return new Layout(syntax).run();
}

class Layout {
  private readonly out: string[] = [];
  private line: Line | null = null;
  private readonly stack: Frame[];
  private prevToken: IToken | null = null;
  private prevElement: Element | null = null;
  /** For each opener, whether a line break comes before its closer. */
  private readonly spansLines: Map<IToken, boolean>;

  constructor(private readonly syntax: Syntax) {
    this.stack = [{ opener: null, owner: syntax.root, base: 0, inner: 0, multiline: true }];
    this.spansLines = bracketsSpanningLines(syntax.elements);
  }

  run(): string {
    const elements = this.syntax.elements;
    for (const element of elements) {
      if (this.breaksBefore(element)) this.newLine(element);
      else this.append(element);
      if (element.kind === "token") this.after(element.token);
      this.prevElement = element;
    }
    this.finishLine();
    return this.out.length ? `${this.out.join("\n")}\n` : "";
  }

  private get frame(): Frame {
    return this.stack[this.stack.length - 1];
  }

  private breaksBefore(element: Element): boolean {
    if (!this.line || this.prevElement?.kind === "comment") return true;
    const broken = element.newlinesBefore > 0;
    if (element.kind === "comment") return broken;
    const t = element.token;
    if (broken) return !this.joinsPrevious(t);
    if (isCloser(t)) return this.frame.multiline;
    const afterComma = this.prevToken !== null && this.prevToken.tokenType === Comma;
    return this.frame.multiline && this.isItemStart(t) && !afterComma;
  }

  private joinsPrevious(t: IToken): boolean {
    if (t.tokenType === Else) return this.prevToken?.tokenType === RBrace;
    return (t.tokenType === LBrace || t.tokenType === SqlBody) && !this.isItemStart(t);
  }

  /** Whether `t` starts an item of the innermost open bracket (or a declaration at the top). */
  private isItemStart(t: IToken): boolean {
    const frame = this.frame;
    if (this.prevToken === null || this.prevToken === frame.opener || this.prevToken.tokenType === Comma) return true;
    return (this.syntax.startsAt.get(t) ?? []).some((node) => this.syntax.nodeParent.get(node) === frame.owner);
  }

  private newLine(element: Element): void {
    const blank =
      this.line !== null &&
      element.newlinesBefore > 1 &&
      !(this.prevElement?.kind === "token" && isOpener(this.prevElement.token)) &&
      !(element.kind === "token" && isCloser(element.token));
    this.finishLine();
    if (blank) this.out.push("");
    this.line = { indent: this.indentOf(element), text: "", raw: false };
    this.write(element);
  }

  private indentOf(element: Element): number {
    if (element.kind === "comment") return this.frame.inner;
    if (isCloser(element.token)) return this.frame.base;
    return this.frame.inner + (this.isItemStart(element.token) ? 0 : 1);
  }

  private append(element: Element): void {
    const line = this.line!;
    const prev = this.prevToken!;
    const space =
      element.kind === "comment" ||
      spaceBetween(this.syntax, prev, element.token, element.start > prev.endOffset! + 1);
    if (space) line.text += " ";
    this.write(element);
  }

  private write(element: Element): void {
    const line = this.line!;
    if (element.kind === "comment") {
      line.text += element.comment.text.trimEnd();
      return;
    }
    const t = element.token;
    if (t.tokenType !== SqlBody) {
      line.text += t.image;
      return;
    }
    const indent = INDENT.repeat(line.indent);
    const lines = placeSqlBody(t.image, { indent, unit: INDENT });
    line.text += lines[0];
    for (const l of lines.slice(1)) {
      this.finishLine();
      this.line = { indent: line.indent, text: l, raw: true };
    }
  }

  /** Opens or closes a bracket's frame. */
  private after(t: IToken): void {
    if (isOpener(t)) {
      const indent = this.line!.indent;
      this.stack.push({
        opener: t,
        owner: this.syntax.parentOf.get(t)!,
        base: indent,
        inner: indent + 1,
        multiline: this.spansLines.get(t) ?? false,
      });
    } else if (isCloser(t) && this.stack.length > 1) {
      this.stack.pop();
    }
    this.prevToken = t;
  }

  private finishLine(): void {
    const line = this.line;
    if (!line) return;
    this.out.push(line.raw ? line.text : (INDENT.repeat(line.indent) + line.text).trimEnd());
    this.line = null;
  }
}

function isOpener(t: IToken): boolean {
  return OPENERS.includes(t.tokenType);
}

function isCloser(t: IToken): boolean {
  return CLOSERS.includes(t.tokenType);
}

/**
 * Brackets with a line break inside, be it in an SQL body; except brackets that only hug
 * other brackets (`f({` … `})`): the inner ones break, the outer ones stay closed up.
 */
function bracketsSpanningLines(elements: readonly Element[]): Map<IToken, boolean> {
  const closerAt = new Map<number, number>();
  const breaksBefore: number[] = [];
  const open: number[] = [];
  let breaks = 0;
  elements.forEach((e, i) => {
    if (e.newlinesBefore > 0) breaks++;
    breaksBefore.push(breaks);
    if (e.kind !== "token") return;
    if (e.token.tokenType === SqlBody && e.token.image.includes("\n")) breaks++;
    if (isOpener(e.token)) open.push(i);
    else if (isCloser(e.token) && open.length) closerAt.set(open.pop()!, i);
  });
  const out = new Map<IToken, boolean>();
  for (const [i, k] of closerAt) {
    const inner = elements[i + 1];
    const hugs =
      inner.kind === "token" &&
      isOpener(inner.token) &&
      inner.newlinesBefore === 0 &&
      closerAt.get(i + 1) === k - 1 &&
      elements[k].newlinesBefore === 0;
    out.set((elements[i] as { token: IToken }).token, !hugs && breaksBefore[k] > breaksBefore[i]);
  }
  return out;
}
