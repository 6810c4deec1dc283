import { defineDiagnostic as d } from "../diagnostic.js";

const didYouMean = (near: string | null) => (near ? `did you mean \`${near}\`?` : undefined);
const list = (names: readonly string[]) => (names.length ? names.map((n) => `\`${n}\``).join(", ") : "none");

/** SQL checked at build time against the declared resources: SVC3001–SVC3099. */
export const sqlCodes = {
  unknownTable: d(
    "SVC3001",
    "error",
    "SQL names a table that no resource declares.",
    (where: string, table: string, _near: string | null, _known: readonly string[]) => `no table \`${table}\` (in ${where})`,
    (_where, _table, near, known) => didYouMean(near) ?? `the tables are the declared resources: ${list(known)}`,
  ),
  unknownColumn: d(
    "SVC3002",
    "error",
    "SQL names a column that the table does not have.",
    (where: string, column: string, _near: string | null, _known: readonly string[], _quoted: boolean) =>
      `no column \`${column}\` (in ${where})`,
    (_where, _column, near, known, quoted) =>
      quoted
        ? "double quotes name a column; write a string with single quotes: 'text'"
        : (didYouMean(near) ?? `the columns here are ${list(known)}`),
  ),
  syntax: d(
    "SVC3003",
    "error",
    "SQL that SQLite cannot parse.",
    (where: string, message: string) => `SQL syntax error in ${where}: ${message}`,
  ),
  rejected: d(
    "SVC3004",
    "error",
    "SQL that SQLite rejects for a reason without a code of its own.",
    (where: string, message: string) => `SQLite rejects the SQL of ${where}: ${message}`,
  ),
  unknownParam: d(
    "SVC3005",
    "error",
    "SQL binds an `@name` that is not a parameter.",
    (where: string, name: string, _near: string | null, _declared: readonly string[]) =>
      `\`@${name}\` is not a parameter of ${where}`,
    (_where, _name, near, declared) =>
      didYouMean(near === null ? null : `@${near}`) ?? `the parameters are ${list(declared.map((n) => `@${n}`))}`,
  ),
  unusedParam: d(
    "SVC3006",
    "warning",
    "A parameter that the SQL never binds with `@name`.",
    (where: string, name: string) => `parameter \`${name}\` of ${where} is never used in its SQL`,
    (_where, name) => `bind it with \`@${name}\`, or remove the parameter`,
  ),
  queryReturnsNoRows: d(
    "SVC3007",
    "error",
    "A query whose SQL returns no rows (an INSERT, UPDATE or DELETE without RETURNING).",
    (where: string) => `${where} returns no rows`,
    () => "a query must return rows, e.g. SELECT …; to change data, use `sql { … }` in an action",
  ),
  queryWrites: d(
    "SVC3008",
    "error",
    "A query whose SQL changes the database; queries are served on GET and must only read.",
    (where: string) => `${where} changes the database, but a query must only read`,
    () => "move the statement into an action: `sql { … }`, or `insert`/`update`/`delete` on a resource",
  ),
  fullScan: d(
    "SVC3009",
    "warning",
    "A query that reads a whole table to find its rows: the planner found no index to use.",
    (where: string, table: string, index: string) => `${where} scans all of table \`${table}\` (no index for its WHERE)`,
    (_where, table, index) => `declare \`${index}\` in resource \`${table}\``,
  ),
  sortWithoutIndex: d(
    "SVC3010",
    "warning",
    "A query that sorts its rows in a temporary b-tree: no index gives them in ORDER BY order.",
    (where: string, table: string | null, _index: string | null) =>
      table ? `${where} sorts the rows of \`${table}\` without an index` : `${where} sorts its rows without an index`,
    (_where, table, index) =>
      table && index
        ? `declare \`${index}\` in resource \`${table}\``
        : "ORDER BY plain columns of one table, then declare an index on them in that order",
  ),
  joinWithoutIndex: d(
    "SVC3011",
    "warning",
    "A join that the planner can only run by building a temporary index on every call.",
    (where: string, table: string, _index: string) =>
      `${where} joins table \`${table}\` without an index (SQLite builds one on every call)`,
    (_where, table, index) => `declare \`${index}\` in resource \`${table}\``,
  ),
  multipleStatements: d(
    "SVC3012",
    "error",
    "One SQL block holds more than one statement.",
    (where: string) => `the SQL of ${where} holds more than one statement`,
    () => "one `query` or `sql { … }` runs exactly one statement; split it in two",
  ),
  emptySql: d("SVC3013", "error", "An SQL block with no statement.", (where: string) => `the SQL of ${where} is empty`),
  foreignPlaceholder: d(
    "SVC3014",
    "error",
    "SQL uses a driver placeholder (`?`, `$1`, `:name`) instead of `@name`.",
    (where: string, text: string) => `placeholder \`${text}\` in ${where}`,
    () => "bind values with `@name`, where `name` is a parameter; svc writes each database's placeholders",
  ),
  ambiguousColumn: d(
    "SVC3015",
    "error",
    "SQL names a column that more than one table of the statement has.",
    (where: string, column: string) => `column \`${column}\` is ambiguous (in ${where})`,
    (_where, column) => `qualify it with its table or alias, e.g. \`t.${column}\``,
  ),
  unknownFunction: d(
    "SVC3016",
    "error",
    "SQL calls a function that SQLite does not have, or with the wrong number of arguments.",
    (where: string, message: string) => `${message} (in ${where})`,
  ),
  tableRejected: d(
    "SVC3017",
    "error",
    "SQLite rejects the table a resource declares.",
    (resource: string, message: string) => `SQLite rejects the table of resource \`${resource}\`: ${message}`,
    (_resource, message) =>
      message.includes("reserved for internal use")
        ? "names starting with `sqlite_` belong to SQLite; rename the resource"
        : undefined,
  ),
  duplicateColumn: d(
    "SVC3018",
    "error",
    "A query returns two columns with the same name; a row can hold only one of them.",
    (where: string, column: string) => `${where} returns more than one column named \`${column}\``,
    (_where, column) =>
      `give all but one an alias, e.g. \`c.${column} AS other_${column}\`, or list the columns instead of \`*\``,
  ),
  unknownAnnotationType: d(
    "SVC3030",
    "error",
    "A column's type annotation (`AS \"name: type\"`) names a type svc does not have.",
    (where: string, column: string, type: string, _near: string | null, _known: readonly string[]) =>
      `column \`${column}\` of ${where} is annotated with \`${type}\`, which is not a type`,
    (_where, column, _type, near, known) =>
      near ? `did you mean \`${column}: ${near}\`?` : `the types are ${list(known)}; add \`?\` for a column that may be null`,
  ),
  annotationContradicts: d(
    "SVC3031",
    "error",
    "A column's type annotation says another type than the field the column reads.",
    (where: string, column: string, type: string, field: string, _fieldType: string) =>
      `column \`${column}\` of ${where} is annotated \`${type}\`, but it reads field \`${field}\``,
    (_where, column, _type, _field, fieldType) =>
      `the field is \`${fieldType}\`; drop the annotation (\`AS ${column}\`), or CAST the value to what you want`,
  ),
};
