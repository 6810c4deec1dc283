import { defineDiagnostic as d } from "../diagnostic.js";

// SQL that SQLite accepts (svc checks names and types with SQLite, and `svc dev` runs on
// it) but the backend chosen in svc.toml `[database] backend` does not, or runs with
// another meaning. docs/backends.md lists every rule. The `live*` codes come from
// `svc check --db URL`, which asks the live database itself.

/** Where SQL is checked for the chosen backend: SVC3101–SVC3199. */
export const dialectCodes = {
  missingFunction: d(
    "SVC3101",
    "error",
    "SQL calls a function the chosen backend does not have (a SQLite-only function).",
    (where: string, fn: string, backend: string, _hint: string) =>
      `\`${fn}\` is not a function on ${backend} (in ${where})`,
    (_where, _fn, _backend, hint) => hint,
  ),
  operator: d(
    "SVC3102",
    "error",
    "SQL uses an operator the chosen backend does not have (`==`, GLOB, MATCH, postfix ISNULL/NOTNULL).",
    (where: string, op: string, backend: string, _hint: string) =>
      `operator \`${op}\` does not exist on ${backend} (in ${where})`,
    (_where, _op, _backend, hint) => hint,
  ),
  isComparison: d(
    "SVC3103",
    "error",
    "SQL compares two values with IS (SQLite's null-safe equality), which the chosen backend allows only with NULL, TRUE or FALSE.",
    (where: string, backend: string, _hint: string) =>
      `\`IS\` compares with NULL, TRUE or FALSE only on ${backend} (in ${where})`,
    (_where, _backend, hint) => hint,
  ),
  identifierQuotes: d(
    "SVC3104",
    "error",
    "SQL quotes a name with backticks or brackets, which the chosen backend reads otherwise.",
    (where: string, quoted: string, backend: string) =>
      `${backend} does not read \`${quoted}\` as a name (in ${where})`,
    () => 'quote names with double quotes: "name" (svc runs MySQL with ANSI_QUOTES, so they work on every backend)',
  ),
  limitForm: d(
    "SVC3105",
    "error",
    "A LIMIT or OFFSET the chosen backend does not take (`LIMIT a, b`, a negative limit, an expression on MySQL).",
    (where: string, problem: string, _hint: string) => `${problem} (in ${where})`,
    (_where, _problem, hint) => hint,
  ),
  returning: d(
    "SVC3106",
    "error",
    "SQL uses RETURNING, which MySQL and TiDB do not have (and MariaDB not on UPDATE).",
    (where: string, backend: string) => `RETURNING is not supported on ${backend} (in ${where})`,
    () =>
      "use a record operation (`insert`, `update`, `delete`), which returns the row on every backend, or read the row with a query after the statement",
  ),
  conflictClause: d(
    "SVC3107",
    "error",
    "SQL uses a conflict clause of another dialect (`INSERT OR …`, `REPLACE INTO`, `ON CONFLICT`).",
    (where: string, clause: string, backend: string, _hint: string) =>
      `\`${clause}\` is not supported on ${backend} (in ${where})`,
    (_where, _clause, _backend, hint) => hint,
  ),
  unsupportedClause: d(
    "SVC3108",
    "error",
    "SQL uses a clause or a form the chosen backend does not have (FULL JOIN, NULLS FIRST, FILTER, UPDATE … FROM, an unnamed subquery, …).",
    (where: string, clause: string, backend: string, _hint: string) =>
      `${clause} is not supported on ${backend} (in ${where})`,
    (_where, _clause, _backend, hint) => hint,
  ),
  castType: d(
    "SVC3109",
    "error",
    "SQL casts to a type name the chosen backend does not know.",
    (where: string, type: string, backend: string, _hint: string) =>
      `${backend} cannot CAST to \`${type}\` (in ${where})`,
    (_where, _type, _backend, hint) => hint,
  ),
  backslashString: d(
    "SVC3110",
    "warning",
    "A string literal holds a backslash, which MySQL reads as an escape and SQLite and PostgreSQL keep as it is.",
    (where: string) => `MySQL reads the backslash in this string as an escape (in ${where})`,
    () => "pass the text as a parameter (`@name`), which is never escaped, or avoid the backslash",
  ),
  likeCase: d(
    "SVC3111",
    "warning",
    "LIKE ignores case on SQLite (ASCII letters) but not on PostgreSQL or MySQL (svc's text columns compare bytes).",
    (where: string, backend: string) => `LIKE compares case-sensitively on ${backend} but not on SQLite (in ${where})`,
    () => "to match alike everywhere, compare lowered text: lower(title) LIKE lower(@pattern)",
  ),
  boolComparedToNumber: d(
    "SVC3112",
    "error",
    "SQL compares a bool column with 0 or 1, which PostgreSQL refuses (boolean = integer).",
    (where: string, column: string, number: string) => `\`${column}\` is a bool, compared with ${number} (in ${where})`,
    (_where, column, number) => `write \`${column} = ${number === "0" ? "FALSE" : "TRUE"}\`, which every backend reads`,
  ),
  scalarMinMax: d(
    "SVC3113",
    "error",
    "SQL calls min() or max() with several arguments (SQLite's scalar form), which the chosen backend does not have.",
    (where: string, fn: string, backend: string) => `\`${fn}(a, b, …)\` does not exist on ${backend} (in ${where})`,
    (_where, fn) =>
      `${fn === "max" ? "GREATEST" : "LEAST"} is not in SQLite; write CASE WHEN a ${fn === "max" ? ">=" : "<="} b THEN a ELSE b END`,
  ),
  functionMeaning: d(
    "SVC3114",
    "error",
    "SQL calls a function that exists on the chosen backend with other arguments or another meaning than on SQLite.",
    (where: string, fn: string, backend: string, _hint: string) =>
      `\`${fn}\` does not mean on ${backend} what it means on SQLite (in ${where})`,
    (_where, _fn, _backend, hint) => hint,
  ),
  jsonOperator: d(
    "SVC3115",
    "warning",
    "SQL uses -> or ->> in a way the chosen backend reads otherwise (a path on PostgreSQL, a key on MySQL, MariaDB has neither).",
    (where: string, backend: string, problem: string) => `${problem} on ${backend} (in ${where})`,
    () =>
      "SQLite, PostgreSQL and MySQL disagree on JSON paths; keep JSON field access in the action, or in one backend's SQL",
  ),
  liveStatement: d(
    "SVC3150",
    "error",
    "`svc check --db`: the live database refuses a statement.",
    (where: string, backend: string, message: string) => `${backend} refuses the SQL of ${where}: ${message}`,
  ),
  liveColumnType: d(
    "SVC3151",
    "warning",
    "`svc check --db`: a result column's type in the live database is not the type svc gives it.",
    (where: string, column: string, declared: string, live: string) =>
      `column \`${column}\` of ${where} is ${declared} to svc but ${live} in the database`,
    () => "the JSON a client gets may differ from the declared type; cast the column in the SQL",
  ),
  liveColumns: d(
    "SVC3152",
    "error",
    "`svc check --db`: a query returns other columns in the live database than svc expects.",
    (where: string, expected: readonly string[], live: readonly string[]) =>
      `${where} returns ${live.join(", ") || "no columns"} in the database, but ${expected.join(", ") || "no columns"} to svc`,
  ),
  liveSchema: d(
    "SVC3153",
    "error",
    "`svc check --db`: a table in the live database differs from its resource in a way the server would refuse at start.",
    (resource: string, problem: string) => `resource \`${resource}\`: ${problem}`,
    () => "the server stops at start on this difference; change the table by hand or the declaration",
  ),
  liveUnreachable: d(
    "SVC3154",
    "error",
    "`svc check --db`: the database could not be reached or queried.",
    (url: string, message: string) => `cannot check against ${url}: ${message}`,
  ),
};
