import type { IToken } from "chevrotain";
import type { PositionMap } from "./positions.js";

/**
 * `///` comments, looked up by the line of the declaration or field they document.
 * A doc block is the run of `///` lines that ends on the line right above; a `///`
 * after code on its line documents nothing.
 */
export class DocComments {
  private readonly byLine = new Map<number, string>();

  constructor(docs: readonly IToken[], positions: PositionMap) {
    for (const token of docs) {
      if (!positions.firstOnLine(token.startOffset)) continue;
      const body = token.image.slice(3);
      this.byLine.set(positions.position(token.startOffset).line, body.startsWith(" ") ? body.slice(1) : body);
    }
  }

  /** The doc text for something that starts on `line`, lines joined by "\n"; null if none. */
  above(line: number): string | null {
    const lines: string[] = [];
    for (let l = line - 1; this.byLine.has(l); l--) lines.push(this.byLine.get(l)!);
    return lines.length === 0 ? null : lines.reverse().join("\n");
  }
}
