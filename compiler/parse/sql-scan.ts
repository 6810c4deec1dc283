// Scanning of SQL bodies (`query q() { … }`, `sql { … }`) and of a resource field's
// parenthesised SQL expressions (`using (…)`). The body is kept verbatim;
// this only finds where it ends and where its `@name` parameters are.

import { sqlLexemes } from "./sql-lex.js";

export interface SqlScan {
  /** Offset just after the closing `}`, or where the body was cut off when unterminated. */
  end: number;
  /** Offsets of the text between the braces: [textStart, textEnd). */
  textStart: number;
  textEnd: number;
  terminated: boolean;
  /** `@name` occurrences: name and the offset of the `@`. */
  params: { name: string; offset: number }[];
}

/** A parameter's name: what follows `@` up to the first character outside [A-Za-z0-9_]. */
const PARAM = /^@([A-Za-z_][A-Za-z0-9_]*)/;

/**
 * Scans from the `{` at `open` with the SQL lexer (sql-lex.ts), so strings, quoted names
 * and comments are skipped both for balancing braces and for `@name`. `@@name` (a MySQL
 * system variable) is not a parameter.
 */
export function scanSqlBody(text: string, open: number): SqlScan {
  const params: SqlScan["params"] = [];
  let depth = 1;
  for (const l of sqlLexemes(text, open + 1)) {
    if (l.kind === "op" && text[l.start] === "{") {
      depth++;
    } else if (l.kind === "op" && text[l.start] === "}") {
      depth--;
      if (depth === 0) return { end: l.end, textStart: open + 1, textEnd: l.start, terminated: true, params };
    } else if (l.kind === "param" && text[l.start] === "@") {
      const m = PARAM.exec(text.slice(l.start, l.end));
      if (m) params.push({ name: m[1], offset: l.start });
    }
  }
  const cut = recoveryCut(text, open);
  return {
    end: cut,
    textStart: open + 1,
    textEnd: cut,
    terminated: false,
    params: params.filter((p) => p.offset < cut),
  };
}

/**
 * From the `(` at `open` to its `)`, with the same lexer: a `)` in a string or a quoted
 * name does not close it. Unterminated (a brace comes first, or the file ends), it runs to
 * the end of its line, so the fields after it still parse.
 */
export function scanSqlParens(text: string, open: number): SqlScan {
  const params: SqlScan["params"] = [];
  let depth = 1;
  for (const l of sqlLexemes(text, open + 1)) {
    if (l.kind === "op" && text[l.start] === "(") {
      depth++;
    } else if (l.kind === "op" && text[l.start] === ")") {
      depth--;
      if (depth === 0) return { end: l.end, textStart: open + 1, textEnd: l.start, terminated: true, params };
    } else if (l.kind === "op" && (text[l.start] === "{" || text[l.start] === "}")) {
      break;
    } else if (l.kind === "param" && text[l.start] === "@") {
      const m = PARAM.exec(text.slice(l.start, l.end));
      if (m) params.push({ name: m[1], offset: l.start });
    }
  }
  const nl = text.indexOf("\n", open);
  const cut = nl < 0 ? text.length : nl;
  return { end: cut, textStart: open + 1, textEnd: cut, terminated: false, params: params.filter((p) => p.offset < cut) };
}

const NEXT_DECLARATION = /\n(?=(?:resource|query|action|route|webhook)[ \t])/g;

/**
 * An unterminated body would otherwise swallow the rest of the file. Cutting it before
 * the next line that starts with a declaration keyword lets the parser go on and report
 * (and keep) the declarations after it.
 */
function recoveryCut(text: string, open: number): number {
  NEXT_DECLARATION.lastIndex = open;
  const m = NEXT_DECLARATION.exec(text);
  return m ? m.index : text.length;
}
