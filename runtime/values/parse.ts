// parse_int, parse_float and parse_bool (docs/language.md §2.3, Built-in functions): text to a
// value, or null when the text is not one, so that `coalesce(parse_int(q), 1)` reads a query
// parameter with a fallback. Surrounding blanks (space, tab, CR, LF) are ignored; nothing else
// is guessed: no `_`, no `0x`, no `Infinity`.

const BLANKS = /^[ \t\r\n]+|[ \t\r\n]+$/g;
const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Decimal digits with an optional sign, between -(2^53-1) and 2^53-1; else null. */
export function parseInt(s: string | null): number | null {
  if (s === null) return null;
  const t = s.replace(BLANKS, "");
  if (!INTEGER.test(t)) return null;
  const n = Number(t);
  if (!Number.isSafeInteger(n)) return null;
  return n === 0 ? 0 : n; // "-0" is 0
}

/** A decimal number (`1.5`, `-.5`, `2.`, `1e3`) that is finite as a double; else null. */
export function parseFloat(s: string | null): number | null {
  if (s === null) return null;
  const t = s.replace(BLANKS, "");
  if (!DECIMAL.test(t)) return null;
  const n = Number(t);
  if (!Number.isFinite(n)) return null;
  return n === 0 ? 0 : n;
}

/** `true`/`false` in any case, or `1`/`0`, as a query string spells a bool; else null. */
export function parseBool(s: string | null): boolean | null {
  if (s === null) return null;
  const t = s.replace(BLANKS, "").toLowerCase();
  if (t === "true" || t === "1") return true;
  if (t === "false" || t === "0") return false;
  return null;
}
