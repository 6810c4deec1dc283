import type { Position, Span } from "../../parse/ast.js";

/** Offsets → 1-based line and column, by binary search over the starts of lines. */
export class LineMap {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  position(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return { offset: at, line: lo + 1, column: at - this.starts[lo] + 1 };
  }

  /** The offset of a 1-based line and column, clamped to the text. */
  offset(line: number, column: number): number {
    const start = this.starts[Math.max(0, Math.min(line - 1, this.starts.length - 1))];
    return Math.min(this.text.length, start + Math.max(0, column - 1));
  }

  span(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(end) };
  }
}
