// Fills a RowExpression's `{name}` column references for the statement it goes in: a bare
// quoted column in a backfill's UPDATE, `NEW."name"` in a trigger. Text inside string
// literals is never touched (the compiler leaves `{…}` there as the user wrote it).

import type { Dialect } from "../contract/server.js";
import type { RowExpression } from "../contract/evolve.js";

export function fillColumns(expression: RowExpression, dialect: Dialect, column: (name: string) => string): string {
  const text = expression[dialect];
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'") {
      // A literal runs to the next quote that is not doubled.
      let j = i + 1;
      while (j < text.length && !(text[j] === "'" && text[j + 1] !== "'")) j += text[j] === "'" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const ref = ch === "{" ? /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(text.slice(i)) : null;
    if (ref !== null) {
      out += column(ref[1]!);
      i += ref[0].length;
      continue;
    }
    out += ch;
    i += 1;
  }
  return out;
}
