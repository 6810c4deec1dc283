import type { Position, Span } from "./ast.js";

/**
 * Turns 0-based offsets into `Position`s. Lines break at "\n" only (a "\r\n" file has
 * "\r" as the last character of each line), which is how the diagnostic renderer splits
 * source text, so a caret always lands under the character the span names.
 */
export class PositionMap {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
      this.lineStarts.push(i + 1);
    }
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { offset: clamped, line: lo + 1, column: clamped - this.lineStarts[lo] + 1 };
  }

  /** The offset of a 1-based line and column, clamped to the text (smol-toml reports errors so). */
  offset(line: number, column: number): number {
    const start = this.lineStarts[Math.max(0, Math.min(line - 1, this.lineStarts.length - 1))];
    return Math.min(this.text.length, start + Math.max(0, column - 1));
  }

  /** `end` is exclusive. */
  span(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  /** Whether only spaces and tabs stand between the start of offset's line and offset. */
  firstOnLine(offset: number): boolean {
    for (let i = offset - 1; i >= 0; i--) {
      const ch = this.text[i];
      if (ch === "\n") return true;
      if (ch !== " " && ch !== "\t" && ch !== "\uFEFF") return false;
    }
    return true;
  }

  get length(): number {
    return this.text.length;
  }
}

export function joinSpans(a: Span, b: Span): Span {
  return { start: a.start, end: b.end };
}
