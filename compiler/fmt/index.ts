// `svc fmt`: the one layout of `.svc` files (docs/language.md §7, Layout). The language
// server's formatting calls `formatSvc` too.

import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { parseCodes } from "../diagnostics/codes/parse.js";
import type { FileKind } from "../parse/lexer.js";
import { PositionMap } from "../parse/positions.js";
import { layout } from "./layout.js";
import { fileKind, readSyntax, type Syntax } from "./syntax.js";

export { fileKind } from "./syntax.js";

/** Thrown for a file that does not lex or parse: there is no layout to give it. */
export class FormatError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => `${d.code}: ${d.message}`).join("\n"));
    this.name = "FormatError";
  }
}

/**
 * The canonical layout of a `.svc` file. `file` names it in diagnostics and says which
 * grammar it has (`route.svc` is a route file, anything else a module file); line
 * endings come out as `\n`. Throws FormatError, with the diagnostics of `svc check`'s
 * parse phase, when the file has a lexing or syntax error.
 */
export function formatSvc(source: string, file = "input.svc"): string {
  const kind = fileKind(file);
  const read = readSyntax(kind, file, source);
  if (!read.syntax) throw new FormatError(read.diagnostics);
  const formatted = layout(read.syntax);
  assertSameCode(kind, file, read.syntax, formatted);
  return formatted;
}

/**
 * The layout never adds, drops or changes a token or a comment; if a bug ever made it,
 * refusing beats writing a changed program over the user's file.
 */
function assertSameCode(kind: FileKind, file: string, before: Syntax, formatted: string): void {
  const after = readSyntax(kind, file, formatted);
  const same =
    after.syntax !== null &&
    sameList(before.tokens.map(describeToken), after.syntax.tokens.map(describeToken)) &&
    sameList(comments(before), comments(after.syntax));
  if (same) return;
  const at = new PositionMap(formatted).span(0, 0);
  throw new FormatError([parseCodes.internalError.at(file, at, "the formatter changed the file's tokens or comments")]);
}

function describeToken(t: { tokenType: { name: string }; image: string }): string {
  return `${t.tokenType.name} ${t.tokenType.name === "SqlBody" ? sqlWords(t.image) : t.image}`;
}

/** An SQL body may move as a block; its words and everything inside them may not change. */
function sqlWords(image: string): string {
  return image.split(/\s+/).filter(Boolean).join(" ");
}

function comments(syntax: Syntax): string[] {
  return syntax.elements.flatMap((e) => (e.kind === "comment" ? [e.comment.text.trimEnd()] : []));
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
