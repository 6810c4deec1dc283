// SQL checks remembered across `svc dev` rebuilds. A check's result depends on the schema
// (every resource's fields, indexes and DDL, in order: table and column names, types,
// suggestions, plan warnings), the backend whose rules apply, and the statement itself
// (file, query or action name, kind, parameters, text). Unchanged, it is not prepared or
// explained again; and the SQLite database holding one schema's tables stays open for as
// long as builds use that schema, instead of being made and loaded every build.

import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Position, Span } from "../parse/ast.js";
import type { Backend, ResourceModel } from "../analyze/model/model.js";
import { type BuildClock, Memo } from "./memo.js";
import { withBackendRules } from "../analyze/sql/backend-rules.js";
import type { SqlCheckInput, SqlCheckResult, SqlChecker } from "../analyze/sql/dialect.js";
import { createSqliteChecker } from "../analyze/sql/sqlite/check.js";

/** Counted per build by the owner of the cache. */
export interface SqlCheckCounts {
  /** Statements really checked (prepared, and explained for a query). */
  sqlChecked: number;
  /** Statements answered from the cache. */
  sqlHits: number;
  /** Schemas whose tables were loaded into a fresh SQLite database. */
  schemasLoaded: number;
}

interface Schema {
  sqlite: SqlChecker;
  results: Memo<Stored>;
}

interface Stored {
  /** A private copy: the caller's result ends up in the model, which is not ours to keep. */
  result: SqlCheckResult;
  /** Where the SQL began when it was checked: its diagnostics' spans are relative to it. */
  at: Position;
}

export class SqlCheckCache {
  private readonly schemas: Memo<Schema>;

  constructor(
    private readonly clock: BuildClock,
    private readonly counts: SqlCheckCounts,
  ) {
    this.schemas = new Memo(clock, (s) => s.sqlite.dispose());
  }

  /** A checker for this build. Its dispose() leaves the database open: the cache closes it when no build uses it. */
  checker(resources: readonly ResourceModel[], backend: Backend | undefined): SqlChecker {
    const key = schemaKey(resources);
    let schema = this.schemas.get(key);
    if (schema === undefined) {
      schema = { sqlite: createSqliteChecker(resources), results: new Memo(this.clock) };
      this.schemas.set(key, schema);
      this.counts.schemasLoaded++;
    }
    const ruled = withBackendRules(schema.sqlite, backend, resources);
    const results = schema.results;
    // SQLite's rules are the base checker's own: no backend and "sqlite" check alike.
    const rules = backend ?? "sqlite";
    return {
      dialect: ruled.dialect,
      rejectedTables: ruled.rejectedTables,
      check: (input) => this.check(results, ruled, rules, input),
      dispose() {},
    };
  }

  private check(results: Memo<Stored>, checker: SqlChecker, rules: string, input: SqlCheckInput): SqlCheckResult {
    // body.params is not in the key: the parser derives it from the text.
    const key = JSON.stringify([rules, input.file, input.kind, input.name, input.params, input.body.text]);
    const at = input.body.span.start;
    const stored = results.get(key);
    if (stored !== undefined) {
      this.counts.sqlHits++;
      return moved(stored, at);
    }
    this.counts.sqlChecked++;
    const result = checker.check(input);
    // Moving a span is only sound inside the SQL, whose text the key fixes.
    if (result.diagnostics.every((d) => d.file === input.file && inside(d.span, input.body.span))) {
      results.set(key, { result: structuredClone(result), at });
    }
    return result;
  }

  /** Ends a build: schemas and statements it did not check are dropped, and unused databases closed. */
  sweep(): void {
    this.schemas.sweep();
    for (const s of this.schemas.values()) s.results.sweep();
  }

  clear(): void {
    this.schemas.clear();
  }

  get sizes(): { schemas: number; statements: number } {
    let statements = 0;
    for (const s of this.schemas.values()) statements += s.results.size;
    return { schemas: this.schemas.size, statements };
  }
}

/** The resources as the checker reads them. Doc comments and places are left out: no check reads them. */
function schemaKey(resources: readonly ResourceModel[]): string {
  return JSON.stringify(
    resources.map((r) => ({ ...r, at: null, doc: null, fields: r.fields.map((f) => ({ ...f, doc: null })) })),
  );
}

function inside(span: Span | null, body: Span): boolean {
  return span === null || (span.start.offset >= body.start.offset && span.end.offset <= body.end.offset);
}

/**
 * The stored result for SQL that now begins at `to`. Text that moved up or down the file
 * (an edit above it) keeps its diagnostics' places relative to the SQL: the same line
 * distance, the same offset distance, and the same column except on the SQL's first line.
 */
function moved(stored: Stored, to: Position): SqlCheckResult {
  const { result, at } = stored;
  const move = (p: Position): Position => {
    const lines = p.line - at.line;
    return {
      offset: p.offset - at.offset + to.offset,
      line: to.line + lines,
      column: lines === 0 ? p.column - at.column + to.column : p.column,
    };
  };
  const diagnostics = result.diagnostics.map(
    (d): Diagnostic => ({ ...d, span: d.span && { start: move(d.span.start), end: move(d.span.end) } }),
  );
  return { ...result, columns: structuredClone(result.columns), jsonValues: structuredClone(result.jsonValues), diagnostics };
}
