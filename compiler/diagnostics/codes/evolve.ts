import { defineDiagnostic as d } from "../diagnostic.js";

/**
 * Schema changes (docs/language.md §2.1, Changing a resource): SVC8100–SVC8139. The compiler's
 * checks of the declarations are SVC8100–SVC8119; SVC8120–SVC8121 are the comparison with a live
 * database in `svc migrate plan`; SVC8122 is what the project's backend cannot do side by side.
 */
export const evolveCodes = {
  unterminatedSqlParens: d(
    "SVC8100",
    "error",
    "An SQL expression opened with `(` after `using`, `back` or `backfill` has no matching `)`.",
    () => "this SQL expression is never closed with )",
    () => "check that the parentheses balance; those inside '…' strings and \"…\" names do not count",
  ),
  needsChangedFrom: d(
    "SVC8101",
    "error",
    "`using`, `back` and `lossy` say how a type change converts values: they come after `changed from <type>`.",
    (clause: string, field: string) => `\`${clause}\` on field \`${field}\`, which declares no \`changed from <type>\``,
    () => "write `changed from <old type>` before it, or remove it",
  ),
  narrowingWithoutUsing: d(
    "SVC8102",
    "error",
    "A type change other than a widening one (int→float, int→text, …) needs `using (<sql>)`: how each old value becomes a new one.",
    (field: string, from: string, to: string) => `field \`${field}\` changes from ${from} to ${to}, which needs a conversion`,
    (field: string, _from: string, to: string) => `add \`using (<sql over the old column>)\` and \`lossy\`, e.g. \`using (CAST(${field} AS ${sqlType(to)})) lossy\``,
  ),
  narrowingWithoutLossy: d(
    "SVC8103",
    "error",
    "A narrowing type change may lose data, which must be declared with `lossy`.",
    (field: string, from: string, to: string) => `field \`${field}\` changes from ${from} to ${to}: some values may not convert`,
    () => "add `lossy` after the conversion to declare that values which do not convert are lost",
  ),
  changedFromSameType: d(
    "SVC8104",
    "error",
    "`changed from <type>` names the type the field had before, which differs from its type now.",
    (field: string, type: string) => `field \`${field}\` is declared \`changed from ${type}\`, its own type`,
    () => "remove `changed from …`, or name the type the column had before",
  ),
  renamedFromDeclared: d(
    "SVC8105",
    "error",
    "`renamed from <name>` names the column's old name, which no field of the resource declares any more.",
    (field: string, old: string, why: string) => `field \`${field}\` is \`renamed from ${old}\`, ${why}`,
    () => "name the column as the live table has it before the rename",
  ),
  oldNameTwice: d(
    "SVC8106",
    "error",
    "One old column is renamed to one field, or dropped, not both and not twice.",
    (old: string, what: string) => `the old column \`${old}\` is ${what}`,
    () => "keep one declaration for the old column",
  ),
  dropDeclaredField: d(
    "SVC8107",
    "error",
    "`drop <name>` names a column the resource no longer declares.",
    (name: string, resource: string) => `\`drop ${name}\`, but \`${name}\` is a field of \`${resource}\``,
    () => "remove the field to drop its column, or remove `drop` to keep it",
  ),
  droppedTwice: d(
    "SVC8108",
    "error",
    "A column or a resource is dropped once.",
    (what: string) => `${what} is dropped twice`,
    () => "remove the second `drop`",
  ),
  dropDeclaredResource: d(
    "SVC8109",
    "error",
    "`drop resource <name>` names a resource no module declares any more.",
    (name: string, at: string) => `\`drop resource ${name}\`, but resource \`${name}\` is declared at ${at}`,
    () => "remove the resource to drop its table, or remove `drop resource` to keep it",
  ),
  backfillOnNullable: d(
    "SVC8110",
    "error",
    "`backfill` fills the NULLs of a column that was nullable and is now required: the field's type has no `?`.",
    (field: string) => `field \`${field}\` has a backfill but is nullable`,
    () => "remove the `?` to make the field required, or remove `backfill`",
  ),
  backfillOnKey: d(
    "SVC8111",
    "error",
    "A key field is never null, so it has nothing to backfill.",
    (field: string) => `key field \`${field}\` has a backfill`,
    () => "remove `backfill`",
  ),
  backfillLiteral: d(
    "SVC8112",
    "error",
    "A backfill value is a literal of the field's type, or an SQL expression in parentheses.",
    (field: string, expected: string) => `the backfill of field \`${field}\` is not ${expected}`,
    () => "write a literal of the field's type, or `backfill (<sql over the row>)`",
  ),
  changeSqlRefused: d(
    "SVC8113",
    "error",
    "The SQL of `using`, `back` or `backfill (…)` is an expression over one row of the table, as SQLite reads it.",
    (clause: string, field: string, message: string) => `the \`${clause}\` SQL of field \`${field}\`: ${message}`,
    (clause: string) =>
      clause === "using"
        ? "it reads the old column under its old name and type, and the table's other columns"
        : clause === "back"
          ? "it reads the new column under its new name, and the table's other columns"
          : "it reads the row's other columns",
  ),
  changeSqlType: d(
    "SVC8114",
    "error",
    "The SQL of `using`, `back` or `backfill (…)` yields a value of the column's type.",
    (clause: string, field: string, found: string, expected: string) =>
      `the \`${clause}\` SQL of field \`${field}\` yields ${found}, not ${expected}`,
    (_clause: string, _field: string, _found: string, expected: string) => `convert it, e.g. with CAST(… AS ${sqlType(expected)})`,
  ),
  keyFieldChange: d(
    "SVC8115",
    "error",
    "A key field is not renamed or retyped in place: every row, index and reference uses it.",
    (field: string, what: string) => `key field \`${field}\` is ${what}`,
    () => "add a new resource with the new key and copy the rows over in an action",
  ),
  paramInRowExpression: d(
    "SVC8116",
    "error",
    "The SQL of a schema change reads only the row: it has no `@name` parameters.",
    (name: string) => `\`@${name}\` in the SQL of a schema change`,
    () => "use a column of the row or a literal",
  ),
  changedFromNullable: d(
    "SVC8117",
    "error",
    "`changed from` names the old type without `?`: whether the column may hold NULL is the field's own `?` (and `backfill` when it no longer may).",
    (field: string, type: string) => `field \`${field}\` is \`changed from ${type}\`, a type with \`?\``,
    () => "remove the `?`; if the column was nullable and is now required, add `backfill …`",
  ),
  braceNameInString: d(
    "SVC8118",
    "error",
    "In the SQL of a schema change `{name}` stands for a column of the row, so a string or a literal does not hold one.",
    (text: string) => `${text} holds \`{…}\` around a name, which the runtime would take for a column`,
    () => "write it in SQL split in two, e.g. `backfill ('{' || 'name}')`",
  ),
  dropOwnTable: d(
    "SVC8119",
    "error",
    "`drop resource` drops a table of the app's own; a name starting with `svc_` is a table of svc's (sessions, jobs, the migration history…).",
    (name: string) => `\`drop resource ${name}\` names a table of svc's own`,
    () => "svc keeps its own tables; drop only a table a resource of yours declared",
  ),
  liveUndeclared: d(
    "SVC8120",
    "error",
    "`svc migrate plan`: the live table differs from the resource in a way no declared change explains; the server would refuse to start.",
    (table: string, problem: string) => `the live table \`${table}\` does not match: ${problem}`,
    () => "add the declaration the message names (docs/migrations.md), or change the table by hand",
  ),
  liveChangeMismatch: d(
    "SVC8121",
    "error",
    "`svc migrate plan`: a declared change does not fit the live table (its old column is missing, or has another type than `changed from` says).",
    (problem: string) => problem,
    () => "check the declaration against the live table: `renamed from` and `changed from` describe the column as it is before the change",
  ),
  retypeNotSideBySide: d(
    "SVC8122",
    "warning",
    "On TiDB and SQLite a type change in place (`changed from` without `renamed from`) cannot serve old and new builds at once: the column keeps its old type under its name until `svc migrate complete`, and the new build refuses to start before. PostgreSQL and MariaDB (backend `mysql`) serve both, the new build through views; MySQL 8 runs no column change at all.",
    (field: string, backend: string) =>
      `field \`${field}\` changes type in place: on ${backend} servers of the old and the new build cannot serve at the same time`,
    () =>
      "deploy in this order: stop every server of the old build, run `svc migrate complete --db …`, then start the new build (docs/migrations.md); or rename the field as it changes type (`renamed from`), which runs side by side",
  ),
};

/** The SQLite type a CAST names for an svc type, for hints. */
function sqlType(type: string): string {
  return type === "int" || type === "bool" ? "INTEGER" : type === "float" ? "REAL" : "TEXT";
}
