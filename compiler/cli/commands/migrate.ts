// `svc migrate plan|apply|complete --db URL` (docs/migrations.md): builds the project in memory
// as `svc dev` does, then compares its declarations with the live database and shows, expands
// or contracts the declared schema changes. `plan` changes nothing; differences no declaration
// explains are diagnostics at the resource (SVC8120–SVC8139).

import { Command, Option } from "clipanion";
import type { Phase } from "../../../runtime/contract/evolve.js";
import type { ServerSpec, TableSpec } from "../../../runtime/contract/index.js";
import { redactUrl } from "../../../runtime/db/net/url.js";
import { backendOfUrl } from "../../../runtime/start/options.js";
import { ownTables } from "../../../runtime/start/own-tables.js";
import type { Model } from "../../analyze/model/model.js";
import { evolveCodes } from "../../diagnostics/codes/evolve.js";
import { type Diagnostic, sortDiagnostics } from "../../diagnostics/diagnostic.js";
import type { MigrateBackend, Migration } from "../migrate-backends.js";
import { planText } from "../migrate-text.js";
import { resolveTarget } from "../target.js";

abstract class MigrateCommand extends Command {
  db = Option.String("--db", { required: true, description: "The database: a postgres:// or mysql:// URL, or a SQLite file" });
  project = Option.String("--project", { description: "A project folder with svc.toml (default: the current folder)" });
  module = Option.String("--module", { description: "One module folder" });
  app = Option.String("--app", { description: "A folder of module folders" });

  protected abstract readonly verb: "plan" | "apply" | "complete";

  /** Builds the project and runs `phase` against --db; a failure is written to stderr with its exit code. */
  protected async migrate(phase: Phase | "plan"): Promise<{ result: Migration; spec: ServerSpec; model: Model; sources: Map<string, string>; backend: MigrateBackend } | number> {
    const name = `svc migrate ${this.verb}`;
    const target = resolveTarget({ module: this.module, app: this.app, project: this.project });
    if (typeof target === "string") return this.fail(2, `${name}: ${target}`);
    const backend = backendOf(this.db);
    if (backend === null) {
      return this.fail(2, `${name}: --db ${redactUrl(this.db)}: give a postgres:// or mysql:// URL, or a SQLite file (sqlite:path or a path)`);
    }
    // Loaded here, not at the CLI's start: every other command would pay for the compiler.
    const { build, formatDiagnostics } = await import("../../index.js");
    const { RUNTIME_URL, importSpec } = await import("../../dev/generation.js");
    const { runMigration } = await import("../migrate-backends.js");
    const built = await build(target, { runtimeImport: RUNTIME_URL, pretty: false });
    if (built.files.length === 0 || built.model === null) {
      if (built.diagnostics.length > 0) this.context.stdout.write(`${formatDiagnostics(built)}\n`);
      return this.fail(1, `${name}: the project has errors; nothing was compared`);
    }
    const spec = await importSpec(built.files, built.root);
    const tables: TableSpec[] = [...spec.tables, ...ownTables(spec)];
    try {
      const result = await runMigration(backend, this.db, tables, spec.schema, phase);
      return { result, spec, model: built.model, sources: built.sources, backend };
    } catch (err) {
      return this.fail(1, `${name}: ${redactUrl(err instanceof Error ? err.message : String(err))}`);
    }
  }

  protected fail(code: number, message: string): number {
    this.context.stderr.write(`${message}\n`);
    return code;
  }
}

export class MigratePlanCommand extends MigrateCommand {
  static override paths = [["migrate", "plan"]];
  static override usage = Command.Usage({
    description: "Print the steps that bring a database to the project's declared schema, per phase, as SQL; run nothing.",
    details: `
      Each step says whether reads and writes go on while it runs, the lock it takes, and whether it loses data.
      Differences between the live tables and the resources that no declaration explains are reported as
      diagnostics naming the declaration to add; exit 1 then.
    `,
    examples: [["Plan against a PostgreSQL database", "svc migrate plan --db postgres://app@127.0.0.1/app --project ."]],
  });
  protected readonly verb = "plan" as const;
  json = Option.Boolean("--json", false, { description: "The plan as JSON" });

  async execute(): Promise<number> {
    const got = await this.migrate("plan");
    if (typeof got === "number") return got;
    const { result, spec, model, sources } = got;
    const diagnostics = liveDiagnostics(result, model, redactUrl(this.db));
    if (this.json) {
      const { additive, evolve } = result;
      const json = {
        build: spec.schema?.build ?? null,
        create: additive.create.map((t) => t.name),
        add: additive.add.map((a) => ({ table: a.table, column: a.column.name })),
        changes: evolve.changes,
        problems: [...evolve.problems, ...additive.problems],
      };
      this.context.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      return diagnostics.length > 0 ? 1 : 0;
    }
    if (diagnostics.length > 0) {
      const { formatDiagnostics } = await import("../../index.js");
      this.context.stdout.write(`${formatDiagnostics({ diagnostics, sources })}\n\n`);
      this.context.stdout.write(`svc migrate plan: ${diagnostics.length} error${diagnostics.length === 1 ? "" : "s"}; declare the changes, then plan again\n`);
      return 1;
    }
    this.context.stdout.write(
      planText({
        where: redactUrl(this.db),
        build: spec.schema?.build ?? "unversioned",
        additive: result.additive,
        evolve: result.evolve,
        addColumn: (table, definition) => `ALTER TABLE ${quote(got.backend, table)} ADD COLUMN ${definition}`,
      }),
    );
    return 0;
  }
}

export class MigrateApplyCommand extends MigrateCommand {
  static override paths = [["migrate", "apply"]];
  static override usage = Command.Usage({
    description: "Run the expand steps (and the additive ones): servers of the old build keep serving; record them in svc_migrations.",
    examples: [["Expand ahead of a deploy", "svc migrate apply --db postgres://app@127.0.0.1/app --project ."]],
  });
  protected readonly verb: "apply" | "complete" = "apply";

  async execute(): Promise<number> {
    const got = await this.migrate("expand");
    if (typeof got === "number") return got;
    return this.report(got.result, "expand");
  }

  protected report(result: Migration, phase: Phase): number {
    const { create, add } = result.additive;
    const lines: string[] = [];
    if (create.length > 0) lines.push(`created ${create.map((t) => t.name).join(", ")}`);
    if (add.length > 0) lines.push(`added ${add.map((a) => `${a.table}.${a.column.name}`).join(", ")}`);
    for (const a of result.applied) lines.push(`${a.change}: ${phase}, ${a.steps} step${a.steps === 1 ? "" : "s"}${a.rows > 0 ? `, ${a.rows} row${a.rows === 1 ? "" : "s"}` : ""}`);
    const verb = `svc migrate ${this.verb}`;
    if (lines.length === 0) this.context.stdout.write(`${verb}: nothing to do\n`);
    for (const line of lines) this.context.stdout.write(`${verb}: ${line}\n`);
    return 0;
  }
}

export class MigrateCompleteCommand extends MigrateApplyCommand {
  static override paths = [["migrate", "complete"]];
  static override usage = Command.Usage({
    description: "Run the contract steps of the open changes (drops what only the old build used): once no server of the old build is left.",
    examples: [["After the deploy", "svc migrate complete --db postgres://app@127.0.0.1/app --project ."]],
  });
  protected override readonly verb: "apply" | "complete" = "complete";

  override async execute(): Promise<number> {
    const got = await this.migrate("contract");
    if (typeof got === "number") return got;
    return this.report(got.result, "contract");
  }
}

/** The backend `--db` names: a URL's scheme, else a SQLite file path. */
function backendOf(db: string): MigrateBackend | null {
  const backend = backendOfUrl(db);
  if (backend === "tidb") return "mysql";
  if (backend !== null) return backend;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(db) ? null : "sqlite";
}

/** The plan's problems as diagnostics at the resource whose table they concern. */
function liveDiagnostics(result: Migration, model: Model, where: string): Diagnostic[] {
  const at = (table: string) => model.resources.find((r) => r.name.toLowerCase() === table.toLowerCase())?.at ?? null;
  const out: Diagnostic[] = [];
  for (const problem of result.evolve.problems) {
    const ref = at(/^(?:drop resource )?([^.\s]+)/.exec(problem)?.[1] ?? "");
    out.push(evolveCodes.liveChangeMismatch.at(ref?.file ?? where, ref?.span ?? null, problem));
  }
  for (const problem of result.additive.problems) {
    const table = /^table (\S+):/.exec(problem)?.[1] ?? "";
    const ref = at(table);
    out.push(evolveCodes.liveUndeclared.at(ref?.file ?? where, ref?.span ?? null, table, problem.replace(/^table \S+: /, "")));
  }
  return sortDiagnostics(out);
}

function quote(backend: MigrateBackend, name: string): string {
  return backend === "mysql" ? `\`${name.replace(/`/g, "``")}\`` : `"${name.replace(/"/g, '""')}"`;
}
