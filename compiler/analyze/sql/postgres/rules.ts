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
import { identName } from "../tokens.js";

// What SQLite accepts and PostgreSQL refuses or reads otherwise (docs/backends.md lists
// them). Parameter types are not among them: svc casts every `$N` to its declared type
// (postgres/params.ts), so PostgreSQL never has to guess one.

export function postgresRules(ctx: RuleContext): void {
  const { input, where, backendName: backend, out } = ctx;
  const file = input.file;
  const tokens = ctx.tokens;

  missingFunctions(ctx, "postgres", (call, hint) =>
    out.push(codes.missingFunction.at(file, spanOf(ctx, call.at), where, call.name, backend, hint)),
  );
  scalarMinMax(ctx, (call) => out.push(codes.scalarMinMax.at(file, spanOf(ctx, call.at), where, call.name, backend)));
  for (const call of ctx.calls) {
    if (call.name === "round" && call.args === 2) {
      out.push(
        codes.functionMeaning.at(
          file,
          spanOf(ctx, call.at),
          where,
          "round(x, n)",
          backend,
          "PostgreSQL rounds a double precision only to a whole number; write round(CAST(x AS NUMERIC), n)",
        ),
      );
    } else if (call.name === "random" && call.args > 0) {
      // random() alone is written per backend (portable.ts); PostgreSQL's takes no argument.
      out.push(
        codes.functionMeaning.at(file, spanOf(ctx, call.at), where, "random(…)", backend, "write random() with no argument: a float in [0, 1) on every backend"),
      );
    }
  }
  dateModifiers(ctx, backend);
  trimCharacters(ctx, backend);

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const v = word(ctx, i);
    if (sqliteOnlySyntax(ctx, i)) continue;
    if (v === "GLOB" || v === "MATCH") {
      out.push(codes.operator.at(file, spanOf(ctx, i), where, v, backend, "use LIKE"));
    } else if (v === "IS") {
      isComparison(ctx, i);
    } else if (t.kind === "quoted" && (t.text.startsWith("`") || t.text.startsWith("["))) {
      out.push(codes.identifierQuotes.at(file, spanOf(ctx, i), where, t.text, backend));
    } else if (v === "INSERT" && word(ctx, i + 1) === "OR") {
      out.push(
        codes.conflictClause.at(
          file,
          spanOf(ctx, i, i + 2),
          where,
          `INSERT OR ${word(ctx, i + 2)}`,
          backend,
          "write INSERT … ON CONFLICT (key) DO NOTHING, or DO UPDATE SET … (SQLite reads it too)",
        ),
      );
    } else if (v === "REPLACE" && word(ctx, i + 1) === "INTO") {
      out.push(
        codes.conflictClause.at(
          file,
          spanOf(ctx, i, i + 1),
          where,
          "REPLACE INTO",
          backend,
          "write INSERT … ON CONFLICT (key) DO UPDATE SET … (SQLite reads it too)",
        ),
      );
    } else if (v === "CAST") {
      castType(ctx, i);
    } else if (v === "LIKE") {
      out.push(codes.likeCase.at(file, spanOf(ctx, i), where, backend));
    } else if (
      (t.text === "->" || t.text === "->>") &&
      tokens[i + 1]?.kind === "string" &&
      tokens[i + 1].text.startsWith("'$")
    ) {
      out.push(
        codes.jsonOperator.at(
          file,
          spanOf(ctx, i, i + 1),
          where,
          backend,
          `${t.text} takes a key, not a path like ${tokens[i + 1].text},`,
        ),
      );
    } else if (t.text === "=" || t.text === "!=" || t.text === "<>") {
      boolCompare(ctx, i);
    }
  }

  for (const { keyword, operand } of limitOperands(ctx)) {
    const kw = word(ctx, keyword);
    if (kw === "LIMIT" && operand.some((t) => t.text === "," && t.depth === tokens[keyword].depth)) {
      out.push(
        codes.limitForm.at(
          file,
          spanOf(ctx, keyword),
          where,
          "`LIMIT a, b` is not PostgreSQL's",
          "write LIMIT b OFFSET a",
        ),
      );
    } else if (operand[0]?.text === "-") {
      out.push(
        codes.limitForm.at(
          file,
          spanOf(ctx, keyword),
          where,
          `a negative ${kw} is an error on PostgreSQL`,
          "SQLite's LIMIT -1 means no limit: leave LIMIT out",
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
        "PostgreSQL before 16",
        "name it: (SELECT …) AS sub",
      ),
    );
  }
}

/** `a IS b` with b other than NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM. */
function isComparison(ctx: RuleContext, at: number): void {
  let next = at + 1;
  if (word(ctx, next) === "NOT") next++;
  const v = word(ctx, next);
  if (["NULL", "TRUE", "FALSE", "UNKNOWN", "DISTINCT"].includes(v)) return;
  ctx.out.push(
    codes.isComparison.at(
      ctx.input.file,
      spanOf(ctx, at),
      ctx.where,
      ctx.backendName,
      "write a IS NOT DISTINCT FROM b (null-safe equality on SQLite and PostgreSQL)",
    ),
  );
}

const PG_NO_CAST = new Set(["BLOB"]);

function castType(ctx: RuleContext, at: number): void {
  const open = at + 1;
  if (ctx.tokens[open]?.text !== "(") return;
  const depth = ctx.tokens[open].depth + 1;
  for (let k = open + 1; k < ctx.tokens.length && ctx.tokens[k].depth >= depth; k++) {
    if (ctx.tokens[k].depth === depth && word(ctx, k) === "AS") {
      const type = word(ctx, k + 1);
      if (PG_NO_CAST.has(type)) {
        ctx.out.push(
          codes.castType.at(
            ctx.input.file,
            spanOf(ctx, k + 1),
            ctx.where,
            type,
            ctx.backendName,
            "PostgreSQL's binary type is bytea",
          ),
        );
      }
      return;
    }
  }
}

/** date('now'), date(x, '+1 day'), time(…), likewise: SQLite's modifiers. */
function dateModifiers(ctx: RuleContext, backend: string): void {
  for (const call of ctx.calls) {
    if (call.name !== "date" && call.name !== "time") continue;
    const first = ctx.tokens[call.open + 1];
    if (call.args >= 2 || (first?.kind === "string" && /^'now'$/i.test(first.text))) {
      ctx.out.push(
        codes.functionMeaning.at(
          ctx.input.file,
          spanOf(ctx, call.at),
          ctx.where,
          `${call.name}(…)`,
          backend,
          "SQLite's date modifiers ('now', '+1 day') are its own; pass the date as a timestamp parameter, computed in the action",
        ),
      );
    }
  }
}

/** trim(x, chars), ltrim(x, chars), rtrim(x, chars): SQLite's two-argument form. */
function trimCharacters(ctx: RuleContext, backend: string): void {
  for (const call of ctx.calls) {
    if (call.name === "trim" && call.args === 2) {
      ctx.out.push(
        codes.functionMeaning.at(
          ctx.input.file,
          spanOf(ctx, call.at),
          ctx.where,
          "trim(x, chars)",
          backend,
          "PostgreSQL writes btrim(x, chars); trim the value in the action to run alike everywhere",
        ),
      );
    }
  }
}

/** `flag = 1` where `flag` is a bool column: PostgreSQL has no boolean = integer. */
function boolCompare(ctx: RuleContext, op: number): void {
  const tokens = ctx.tokens;
  const isBit = (i: number) => tokens[i]?.kind === "number" && (tokens[i].text === "0" || tokens[i].text === "1");
  let numberAt: number;
  let column: string | null;
  let qualifier: string | null = null;
  let from: number;
  let to: number;
  if (isBit(op + 1)) {
    // [q.]col = 1
    numberAt = op + 1;
    column = identName(tokens[op - 1]);
    if (tokens[op - 2]?.text === ".") qualifier = identName(tokens[op - 3]);
    from = qualifier === null ? op - 1 : op - 3;
    to = numberAt;
  } else if (isBit(op - 1)) {
    // 1 = [q.]col
    numberAt = op - 1;
    if (tokens[op + 2]?.text === ".") {
      qualifier = identName(tokens[op + 1]);
      column = identName(tokens[op + 3]);
      to = op + 3;
    } else {
      column = identName(tokens[op + 1]);
      to = op + 1;
    }
    from = numberAt;
  } else {
    return;
  }
  if (column === null || from < 0) return;
  const q = qualifier?.toLowerCase() ?? null;
  const fields = ctx.refs
    .filter((r) => r.table !== null && (q === null || r.alias?.toLowerCase() === q || r.table.toLowerCase() === q))
    .map((r) => ctx.resources.find((res) => res.name.toLowerCase() === r.table!.toLowerCase()))
    .map((res) => res?.fields.find((f) => f.name.toLowerCase() === column!.toLowerCase()))
    .filter((f) => f !== undefined);
  if (fields.length === 1 && fields[0]!.type === "bool") {
    ctx.out.push(
      codes.boolComparedToNumber.at(ctx.input.file, spanOf(ctx, from, to), ctx.where, column, tokens[numberAt].text),
    );
  }
}
