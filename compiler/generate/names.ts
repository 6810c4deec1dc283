import { camelCase, pascalCase } from "../analyze/shared/names.js";
import type { Model, StatementOwner } from "../analyze/model/model.js";

// Identifiers the generated file declares itself; user names that would shadow them get a `_`.
const RESERVED = new Set([
  "rt", "tx", "db", "args", "input", "ctx", "spec", "a",
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
  "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
  "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
  "while", "with", "yield", "let", "static", "implements", "interface", "package", "private", "protected",
  "public", "await", "async", "arguments", "eval", "undefined", "NaN", "Infinity",
]);

/** A user's variable or parameter name as a safe TypeScript identifier. */
export function local(name: string): string {
  return RESERVED.has(name) ? `${name}_` : name;
}

/** What a name made for a module's declaration is for. */
type Declared = "querySql" | "fn" | "args" | "qrow" | "input" | "endpoint" | "type" | "typeCheck" | "webhook" | "job" | "schedule";

/**
 * Top-level names of the generated file. With one module, names are plain (`listTasks`,
 * `Task`); with several, declarations are prefixed with their module so two modules can
 * both have a `list` query. Deterministic: the same model always gets the same names.
 */
export class Names {
  private readonly prefix: boolean;
  private readonly taken = new Set<string>();
  private readonly memo = new Map<string, string>();
  /** Names of what a module declares, by what they name, then module, then declaration name. */
  private readonly declared = new Map<Declared, Map<string, Map<string, string>>>();
  private readonly owners: ReadonlyMap<string, StatementOwner>;

  constructor(model: Model) {
    this.prefix = model.modules.length > 1;
    this.owners = new Map(model.statements.map((s) => [s.name, s.owner]));
  }

  private unique(key: string, base: string): string {
    const hit = this.memo.get(key);
    if (hit) return hit;
    const name = this.take(base);
    this.memo.set(key, name);
    return name;
  }

  /** `unique` for a module's query, action, record type or webhook: one name per declaration and use. */
  private ofDeclared(use: Declared, module: string, name: string, base: string): string {
    let modules = this.declared.get(use);
    if (modules === undefined) this.declared.set(use, (modules = new Map()));
    let names = modules.get(module);
    if (names === undefined) modules.set(module, (names = new Map()));
    const hit = names.get(name);
    if (hit) return hit;
    const made = this.take(base);
    names.set(name, made);
    return made;
  }

  private take(base: string): string {
    let name = RESERVED.has(base) ? `${base}_` : base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    return name;
  }

  private scoped(module: string, name: string): string {
    return this.prefix ? `${module}_${name}` : name;
  }

  /** `Task`: the row interface of a resource (resources are global: no module prefix). */
  rowType(resource: string): string {
    return this.unique(`row:${resource}`, pascalCase(resource));
  }
  /** `taskTable` */
  table(resource: string): string {
    return this.unique(`table:${resource}`, `${camelCase(resource)}Table`);
  }
  /** `taskSqliteRow`: how the sqlite adapter makes a row of the resource from its values. */
  sqliteRow(resource: string): string {
    return this.unique(`sqlite-row:${resource}`, `${camelCase(resource)}SqliteRow`);
  }
  /** `TASK_PRIORITY`: the allowed values of an enum field. */
  enumValues(resource: string, field: string): string {
    return this.unique(`enum:${resource}.${field}`, `${resource}_${field}`.toUpperCase());
  }
  /** `taskGet`, `taskInsert`, `taskUpdateAssigneeStatus`, `taskDelete`. */
  recordFn(statement: string): string {
    return this.unique(`record:${statement}`, camelCase(statement.replace(/\./g, "_")));
  }
  /** `listTasksSql`: the statement of a query. */
  querySql(module: string, name: string): string {
    return this.ofDeclared("querySql", module, name, `${this.fn(module, name)}Sql`);
  }
  /** `taskGetSql` for a record statement (or the delivery store's), `purgeDoneTasksSql1` for an action's first `sql` block. */
  statement(name: string): string {
    const owner = this.owners.get(name);
    const base = owner?.kind === "sql" ? `${this.fn(owner.module, owner.action)}Sql${owner.index}` : `${this.recordFn(name)}Sql`;
    return this.unique(`stmt:${name}`, base);
  }
  /** `listTasks` */
  fn(module: string, name: string): string {
    return this.ofDeclared("fn", module, name, camelCase(this.scoped(module, name)));
  }
  /** `profile`, then `profile2` for a fn's second instance (`FnModel.id`, `<module>.<name>#<n>`). */
  pureFn(id: string): string {
    const [module, rest] = [id.slice(0, id.indexOf(".")), id.slice(id.indexOf(".") + 1)];
    return this.unique(`pure:${id}`, camelCase(this.scoped(module, rest.slice(0, rest.lastIndexOf("#")))));
  }
  /** `ProfileArgs`: the arguments of a fn's instance. */
  pureArgsType(id: string): string {
    return this.unique(`pureArgs:${id}`, `${pascalCase(this.pureFn(id))}Args`);
  }
  /** `ListTasksArgs` */
  argsType(module: string, name: string): string {
    return this.ofDeclared("args", module, name, `${pascalCase(this.scoped(module, name))}Args`);
  }
  /** `ListTasksRow` for a query whose rows are not exactly one resource's. */
  queryRowType(module: string, name: string): string {
    return this.ofDeclared("qrow", module, name, `${pascalCase(this.scoped(module, name))}Row`);
  }
  /** `taskJson`, `listTasksRowJson`: writes a row of `type` (a resource's row or a query's own) as JSON text. */
  rowJson(type: string): string {
    return this.unique(`rowJson:${type}`, `${camelCase(type)}Json`);
  }
  /** `listTasksInput`: validates and coerces a call's arguments. */
  input(module: string, name: string): string {
    return this.ofDeclared("input", module, name, `${camelCase(this.scoped(module, name))}Input`);
  }
  /** `listTasksDatabaseJson`: a query's answer as the database writes it. */
  databaseJson(module: string, name: string): string {
    return this.unique(`databaseJson:${module}.${name}`, `${camelCase(this.scoped(module, name))}DatabaseJson`);
  }
  /** `listTasksEndpoint` */
  endpoint(module: string, name: string): string {
    return this.ofDeclared("endpoint", module, name, `${camelCase(this.scoped(module, name))}Endpoint`);
  }
  /** Route-file blocks and pages (`apiTaskTrackerGet`, `tasksPage`): `key` keeps one name per thing. */
  app(key: string, base: string): string {
    return this.unique(`app:${key}`, base);
  }
  /** `NewUser`: the interface of a record type. */
  recordType(module: string, name: string): string {
    return this.ofDeclared("type", module, name, pascalCase(this.scoped(module, name)));
  }
  /** `checkNewUser`: checks a value against a record type at the edge. */
  recordCheck(module: string, name: string): string {
    return this.ofDeclared("typeCheck", module, name, `check${pascalCase(this.scoped(module, name))}`);
  }
  /** `NEW_USER_ROLE`: the check of an enum member of a record type, or of an enum list item. */
  shapeEnum(key: string, base: string): string {
    return this.unique(`shapeEnum:${key}`, base.toUpperCase());
  }
  /** `githubIssuesWebhook` */
  webhook(module: string, name: string): string {
    return this.ofDeclared("webhook", module, name, `${camelCase(this.scoped(module, name))}Webhook`);
  }
  /** `sendDigestJob`: a job's spec (runtime/jobs/types.ts JobSpec). */
  job(module: string, name: string): string {
    return this.ofDeclared("job", module, name, `${camelCase(this.scoped(module, name))}Job`);
  }
  /** `nightlyCleanupSchedule` */
  schedule(module: string, name: string): string {
    return this.ofDeclared("schedule", module, name, `${camelCase(this.scoped(module, name))}Schedule`);
  }
}
