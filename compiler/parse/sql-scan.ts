// Scanning of SQL bodies (`query q() { … }`, `sql { … }`). The body is kept verbatim;
// this only finds where it ends and where its `@name` parameters are.

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

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

/**
 * Scans from the `{` at `open`. Braces balance; quotes ('…' strings, "…" and `…`
 * identifiers, with the quote doubled to escape it as standard SQL does) and comments
 * (`--` to end of line, `/* … *\/`) are skipped both for balancing and for `@name`.
 * `@@name` (a MySQL system variable) is not a parameter.
 */
export function scanSqlBody(text: string, open: number): SqlScan {
  const params: SqlScan["params"] = [];
  let depth = 1;
  let i = open + 1;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (ch === "'" || ch === '"' || ch === "`") {
      const close = skipQuoted(text, i, ch);
      if (close < 0) break;
      i = close;
    } else if (ch === "-" && text[i + 1] === "-") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? n : nl;
    } else if (ch === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      if (close < 0) break;
      i = close + 2;
    } else if (ch === "{") {
      depth++;
      i++;
    } else if (ch === "}") {
      depth--;
      if (depth === 0) return { end: i + 1, textStart: open + 1, textEnd: i, terminated: true, params };
      i++;
    } else if (ch === "@") {
      i = scanAt(text, i, params);
    } else {
      i++;
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

/** Returns the offset after the closing quote, or -1 when the quote never closes. */
function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  for (;;) {
    const close = text.indexOf(quote, i);
    if (close < 0) return -1;
    if (text[close + 1] === quote) {
      i = close + 2;
      continue;
    }
    return close + 1;
  }
}

function scanAt(text: string, at: number, params: SqlScan["params"]): number {
  if (text[at + 1] === "@") {
    let i = at + 2;
    while (i < text.length && NAME_CHAR.test(text[i])) i++;
    return i;
  }
  if (!NAME_START.test(text[at + 1] ?? "")) return at + 1;
  let i = at + 2;
  while (i < text.length && NAME_CHAR.test(text[i])) i++;
  params.push({ name: text.slice(at + 1, i), offset: at });
  return i;
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
