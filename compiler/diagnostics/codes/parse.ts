// Diagnostics of the parse phase: SVC1001–SVC1099. Codes are never reused.

import { defineDiagnostic } from "../diagnostic.js";

export const parseCodes = {
  unexpectedToken: defineDiagnostic(
    "SVC1001",
    "error",
    "The parser found something other than what the grammar allows at that point.",
    (found: string, expected: string) => `expected ${expected}, found ${found}`,
    (found: string, expected: string) => unexpectedTokenHint(found, expected),
  ),
  unterminatedString: defineDiagnostic(
    "SVC1002",
    "error",
    "A string literal is not closed before the end of its line.",
    () => "this string is never closed",
    () => 'close it with " on the same line; strings cannot span lines (write \\n for a line break)',
  ),
  unterminatedSql: defineDiagnostic(
    "SVC1003",
    "error",
    "An SQL body opened with `{` has no matching `}`.",
    () => "this SQL body is never closed with }",
    () =>
      "check that the braces in the SQL balance; braces inside '…' strings, \"…\" names and -- or /* */ comments do not count",
  ),
  invalidCharacter: defineDiagnostic(
    "SVC1004",
    "error",
    "A character that cannot start any token.",
    (chars: string) => `unexpected character ${JSON.stringify(chars)}`,
    (chars: string) => invalidCharacterHint(chars),
  ),
  missingModuleHeader: defineDiagnostic(
    "SVC1005",
    "error",
    "A module file does not start with `module <name>`.",
    () => "a module file must start with `module <name>`",
    () => "add `module <name>` as the first line; every .svc file of one folder names the same module",
  ),
  unknownEscape: defineDiagnostic(
    "SVC1006",
    "error",
    "A string contains a backslash escape other than \\\" \\\\ \\n \\t.",
    (sequence: string) => `unknown escape sequence ${sequence} in a string`,
    () => 'the escapes are \\" \\\\ \\n and \\t; write \\\\ for a backslash',
  ),
  chainedComparison: defineDiagnostic(
    "SVC1007",
    "error",
    "Comparison operators were chained (`a < b < c`); they do not associate.",
    (op: string) => `comparisons do not chain: a second ${op} needs its own operands`,
    () => "combine comparisons with and, e.g. `a < b and b < c`",
  ),
  enumWithoutValues: defineDiagnostic(
    "SVC1008",
    "error",
    "An `enum` type without its list of values.",
    () => "enum needs its list of values",
    () => "write the values in parentheses, e.g. enum(low, medium, high)",
  ),
  valuesOnNonEnum: defineDiagnostic(
    "SVC1009",
    "error",
    "A list of values after a type other than `enum`.",
    (type: string) => `only enum takes a list of values, not ${type}`,
    () => "remove the parentheses, or make the type enum(…)",
  ),
  missingComma: defineDiagnostic(
    "SVC1010",
    "error",
    "Two `key: value` entries on the same line without a comma between them.",
    () => "entries on the same line need a comma between them",
    () => "add a comma, or put each entry on its own line",
  ),
  numberOutOfRange: defineDiagnostic(
    "SVC1011",
    "error",
    "An integer literal too large to be represented exactly.",
    (text: string) => `the number ${text} is too large`,
    () => `integers must lie between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
  ),
  tooManyErrors: defineDiagnostic(
    "SVC1012",
    "error",
    "The file has so many syntax errors that the rest are not listed.",
    (shown: number) => `too many syntax errors; only the first ${shown} are listed`,
    () => "is this really an .svc file? fix the first errors and check again",
  ),
  nestingTooDeep: defineDiagnostic(
    "SVC1013",
    "error",
    "Expressions or blocks nested so deeply that the parser runs out of stack.",
    () => "this file nests expressions or blocks too deeply to parse",
    () => "name intermediate results with let instead of nesting hundreds of levels deep",
  ),
  internalError: defineDiagnostic(
    "SVC1099",
    "error",
    "The parser failed unexpectedly (a bug in svc, not in the file).",
    (message: string) => `internal parser error: ${message}`,
    () => "please report this with the file that caused it",
  ),
};

function unexpectedTokenHint(found: string, expected: string): string | undefined {
  if (found === "end of file" && expected.includes('"}"')) return "a { is never closed with }";
  if (found === 'keyword "module"') return "a file has one `module <name>` line, at the top";
  if (found.startsWith("keyword ") && expected === "a name") {
    return `${found.slice(8)} is reserved here; choose another name`;
  }
  if (expected.startsWith("a method block") && found !== "end of file") {
    return "a route file is a list of blocks like `GET { … }` or `POST name { … }`; methods are written in capitals";
  }
  if (expected.startsWith("a declaration")) {
    return "top-level declarations start with resource, query, action, fn, type, route or webhook (a query or action may have private or public before it, a GET route unsafe)";
  }
  if (found === '"="' && expected.includes('"=>"')) return 'routes are written `route GET "/path" => target`';
  if (found === '"{"' && expected === "an SQL body in braces") {
    return "a query is written `query name(params) { SQL }`";
  }
  return undefined;
}

function invalidCharacterHint(chars: string): string | undefined {
  if (chars.startsWith("@")) return "@name parameters exist only inside SQL bodies";
  if (chars.startsWith(";")) return "statements need no semicolons; put them on separate lines";
  if (chars.startsWith("'")) return 'strings use double quotes: "…"';
  if (chars.startsWith("!")) return "negation is written `not`; inequality is `!=`";
  if (chars.startsWith("&") || chars.startsWith("|")) return "logical operators are written `and` and `or`";
  return undefined;
}
