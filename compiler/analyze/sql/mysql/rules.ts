import { dialectCodes as codes } from "../../../diagnostics/codes/dialect.js";
import {
  type RuleContext,
  limitOperands,
  missingFunctions,
  scalarMinMax,
  sqliteOnlySyntax,
  spanOf,
  unnamedSubqueries,
  word,
} from "../portability.js";

// What SQLite accepts and MySQL 8 / MariaDB / TiDB refuse or read otherwise
// (docs/backends.md lists them). svc runs MySQL sessions with ANSI_QUOTES and
// PIPES_AS_CONCAT (runtime/db/mysql/session.ts), so "quoted names" and `||` need no rule.
// TiDB takes the MySQL 8 constructs svc lets through, so it shares these rules; only the
// `->`/`->>` warning differs (MariaDB lacks the operators, TiDB has them).

/** The type names MySQL's CAST takes. */
const MYSQL_CASTS = new Set([
  "BINARY",
  "CHAR",
  "DATE",
  "DATETIME",
  "DECIMAL",
  "DOUBLE",
  "FLOAT",
  "JSON",
  "NCHAR",
  "SIGNED",
  "UNSIGNED",
  "TIME",
  "YEAR",
]);

export function mysqlRules(ctx: RuleContext): void {
  const { input, where, backendName: backend, out, tokens } = ctx;
  const file = input.file;

  missingFunctions(ctx, "mysql", (call, hint) =>
    out.push(codes.missingFunction.at(file, spanOf(ctx, call.at), where, call.name, backend, hint)),
  );
  scalarMinMax(ctx, (call) => out.push(codes.scalarMinMax.at(file, spanOf(ctx, call.at), where, call.name, backend)));
  for (const call of ctx.calls) {
    const at = spanOf(ctx, call.at);
    if (call.name === "log" && call.args === 1) {
      out.push(
        codes.functionMeaning.at(
          file,
          at,
          where,
          "log(x)",
          backend,
          "log(x) is the natural logarithm on MySQL but base 10 on SQLite and PostgreSQL; write log10(x) or ln(x)",
        ),
      );
    } else if (call.name === "group_concat" && call.args === 2) {
      out.push(
        codes.functionMeaning.at(
          file,
          at,
          where,
          "group_concat(x, separator)",
          backend,
          "MySQL writes group_concat(x SEPARATOR ','), which SQLite does not read; with the default separator ',' write group_concat(x)",
        ),
      );
    } else if ((call.name === "trim" || call.name === "ltrim" || call.name === "rtrim") && call.args === 2) {
      out.push(
        codes.functionMeaning.at(
          file,
          at,
          where,
          `${call.name}(x, chars)`,
          backend,
          "MySQL trims only spaces this way (TRIM(chars FROM x) is MySQL's); trim the value in the action",
        ),
      );
    } else if (
      (call.name === "date" || call.name === "time") &&
      (call.args >= 2 || /^'now'$/i.test(tokens[call.open + 1]?.text ?? ""))
    ) {
      out.push(
        codes.functionMeaning.at(
          file,
          at,
          where,
          `${call.name}(…)`,
          backend,
          "SQLite's date modifiers ('now', '+1 day') are its own; pass the date as a timestamp parameter, computed in the action",
        ),
      );
    } else if (call.name === "json_extract") {
      out.push(
        codes.functionMeaning.at(
          file,
          at,
          where,
          "json_extract",
          backend,
          "MySQL's JSON_EXTRACT returns JSON (a string keeps its quotes), SQLite's an SQL value; read JSON fields in the action",
        ),
      );
    }
  }

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const v = word(ctx, i);
    if (sqliteOnlySyntax(ctx, i)) continue;
    if (v === "GLOB" || v === "MATCH") {
      out.push(codes.operator.at(file, spanOf(ctx, i), where, v, backend, "use LIKE"));
    } else if ((v === "ISNULL" || v === "NOTNULL") && tokens[i + 1]?.text !== "(") {
      out.push(
        codes.operator.at(file, spanOf(ctx, i), where, v, backend, `write IS ${v === "ISNULL" ? "" : "NOT "}NULL`),
      );
    } else if (v === "IS") {
      isComparison(ctx, i);
    } else if (t.kind === "quoted" && t.text.startsWith("[")) {
      out.push(codes.identifierQuotes.at(file, spanOf(ctx, i), where, t.text, backend));
    } else if (v === "RETURNING") {
      out.push(codes.returning.at(file, spanOf(ctx, i), where, backend));
    } else if (v === "INSERT" && word(ctx, i + 1) === "OR") {
      out.push(
        codes.conflictClause.at(
          file,
          spanOf(ctx, i, i + 2),
          where,
          `INSERT OR ${word(ctx, i + 2)}`,
          backend,
          "check for the row first (a query, or `get`), then insert",
        ),
      );
    } else if (v === "ON" && word(ctx, i + 1) === "CONFLICT") {
      out.push(
        codes.conflictClause.at(
          file,
          spanOf(ctx, i, i + 1),
          where,
          "ON CONFLICT",
          backend,
          "MySQL writes ON DUPLICATE KEY UPDATE, which SQLite does not read; check for the row first, in the action",
        ),
      );
    } else if (
      v === "FULL" &&
      (word(ctx, i + 1) === "JOIN" || (word(ctx, i + 1) === "OUTER" && word(ctx, i + 2) === "JOIN"))
    ) {
      out.push(
        codes.unsupportedClause.at(
          file,
          spanOf(ctx, i),
          where,
          "FULL JOIN",
          backend,
          "combine a LEFT JOIN and a RIGHT JOIN with UNION",
        ),
      );
    } else if (v === "NULLS" && (word(ctx, i + 1) === "FIRST" || word(ctx, i + 1) === "LAST")) {
      out.push(
        codes.unsupportedClause.at(
          file,
          spanOf(ctx, i, i + 1),
          where,
          `NULLS ${word(ctx, i + 1)}`,
          backend,
          "ORDER BY x IS NULL, x sorts NULLs last on every backend (x IS NOT NULL, x: first)",
        ),
      );
    } else if (v === "FILTER" && tokens[i + 1]?.text === "(" && word(ctx, i + 2) === "WHERE") {
      out.push(
        codes.unsupportedClause.at(
          file,
          spanOf(ctx, i),
          where,
          "FILTER (WHERE …)",
          backend,
          "write sum(CASE WHEN cond THEN x END)",
        ),
      );
    } else if (v === "DEFAULT" && word(ctx, i + 1) === "VALUES") {
      out.push(
        codes.unsupportedClause.at(
          file,
          spanOf(ctx, i, i + 1),
          where,
          "DEFAULT VALUES",
          backend,
          "name at least one column: INSERT INTO t (col) VALUES (…)",
        ),
      );
    } else if (
      v === "DISTINCT" &&
      word(ctx, i + 1) === "FROM" &&
      (word(ctx, i - 1) === "IS" || word(ctx, i - 2) === "IS")
    ) {
      out.push(
        codes.unsupportedClause.at(
          file,
          spanOf(ctx, i, i + 1),
          where,
          "IS DISTINCT FROM",
          backend,
          "write (a = b OR (a IS NULL AND b IS NULL)) for null-safe equality",
        ),
      );
    } else if (v === "UPDATE" && i === 0) {
      updateFrom(ctx);
    } else if (v === "CAST") {
      castType(ctx, i);
    } else if (v === "LIKE") {
      out.push(codes.likeCase.at(file, spanOf(ctx, i), where, backend));
    } else if (t.kind === "string" && t.text.includes("\\")) {
      out.push(codes.backslashString.at(file, spanOf(ctx, i), where));
    } else if (t.text === "->" || t.text === "->>") {
      jsonOperator(ctx, i);
    }
  }

  for (const { keyword, operand } of limitOperands(ctx)) {
    const kw = word(ctx, keyword);
    const parts = splitTopLevel(operand, tokens[keyword].depth);
    if (operand[0]?.text === "-") {
      out.push(
        codes.limitForm.at(
          file,
          spanOf(ctx, keyword),
          where,
          `a negative ${kw} is an error on MySQL`,
          "SQLite's LIMIT -1 means no limit: leave LIMIT out",
        ),
      );
    } else if (parts.some((p) => p.length !== 1 || (p[0].kind !== "number" && p[0].kind !== "param"))) {
      out.push(
        codes.limitForm.at(
          file,
          spanOf(ctx, keyword),
          where,
          `MySQL takes only a number or a parameter after ${kw}`,
          "compute the value in the action and pass it as a parameter",
        ),
      );
    }
  }
  for (const ref of unnamedSubqueries(ctx)) {
    out.push(
      codes.unsupportedClause.at(
        file,
        spanOf(ctx, ref.at),
        where,
        "a subquery in FROM without a name",
        backend,
        "name it: (SELECT …) AS sub",
      ),
    );
  }
}

/** `a IS b` with b other than NULL, TRUE, FALSE or UNKNOWN (IS DISTINCT FROM has its own rule). */
function isComparison(ctx: RuleContext, at: number): void {
  let next = at + 1;
  if (word(ctx, next) === "NOT") next++;
  if (["NULL", "TRUE", "FALSE", "UNKNOWN", "DISTINCT"].includes(word(ctx, next))) return;
  ctx.out.push(
    codes.isComparison.at(
      ctx.input.file,
      spanOf(ctx, at),
      ctx.where,
      ctx.backendName,
      "write (a = b OR (a IS NULL AND b IS NULL)) for null-safe equality",
    ),
  );
}

/** `UPDATE t SET … FROM u WHERE …`: SQLite's and PostgreSQL's join in an UPDATE. */
function updateFrom(ctx: RuleContext): void {
  const from = ctx.tokens.findIndex((t) => t.depth === 0 && t.kind === "word" && t.value === "FROM");
  if (from < 0) return;
  ctx.out.push(
    codes.unsupportedClause.at(
      ctx.input.file,
      spanOf(ctx, from),
      ctx.where,
      "UPDATE … FROM",
      ctx.backendName,
      "set the column from a subquery instead: UPDATE t SET x = (SELECT … FROM u WHERE u.id = t.u_id)",
    ),
  );
}

function castType(ctx: RuleContext, at: number): void {
  const open = at + 1;
  if (ctx.tokens[open]?.text !== "(") return;
  const depth = ctx.tokens[open].depth + 1;
  for (let k = open + 1; k < ctx.tokens.length && ctx.tokens[k].depth >= depth; k++) {
    if (ctx.tokens[k].depth !== depth || word(ctx, k) !== "AS") continue;
    const type = word(ctx, k + 1);
    if (type === "" || MYSQL_CASTS.has(type)) return;
    const hint = ["TEXT", "VARCHAR", "CLOB"].includes(type)
      ? "x || '' is text on every backend (MySQL's CHAR would be char(1) on PostgreSQL)"
      : ["INTEGER", "INT", "BIGINT", "SMALLINT"].includes(type)
        ? "MySQL casts to SIGNED, which SQLite and PostgreSQL do not read; convert the value in the action"
        : `MySQL casts to ${[...MYSQL_CASTS].join(", ")}`;
    ctx.out.push(codes.castType.at(ctx.input.file, spanOf(ctx, k + 1), ctx.where, type, ctx.backendName, hint));
    return;
  }
}

function jsonOperator(ctx: RuleContext, at: number): void {
  const op = ctx.tokens[at].text;
  const right = ctx.tokens[at + 1];
  if (ctx.backend === "mysql") {
    ctx.out.push(
      codes.jsonOperator.at(
        ctx.input.file,
        spanOf(ctx, at),
        ctx.where,
        "MySQL/MariaDB",
        `MariaDB has no ${op} operator (MySQL and TiDB do),`,
      ),
    );
  } else if (right?.kind === "string" && !right.text.startsWith("'$")) {
    ctx.out.push(
      codes.jsonOperator.at(
        ctx.input.file,
        spanOf(ctx, at, at + 1),
        ctx.where,
        ctx.backendName,
        `${op} takes a path such as '$.key', not ${right.text},`,
      ),
    );
  }
}

function splitTopLevel<T extends { text: string; depth: number }>(tokens: readonly T[], depth: number): T[][] {
  const parts: T[][] = [[]];
  for (const t of tokens) {
    if (t.text === "," && t.depth === depth) parts.push([]);
    else parts[parts.length - 1].push(t);
  }
  return parts;
}
