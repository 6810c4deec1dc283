import { Command, Option } from "clipanion";
import { backendOfUrl } from "../../../runtime/start/options.js";
import { redactUrl } from "../../../runtime/db/net/url.js";
import { type Diagnostic, sortDiagnostics } from "../../diagnostics/diagnostic.js";
import { resolveTarget } from "../target.js";

const BACKENDS = ["sqlite", "postgres", "mysql", "tidb"] as const;
type Backend = (typeof BACKENDS)[number];

export class CheckCommand extends Command {
  static override paths = [["check"]];
  static override usage = Command.Usage({
    description: "Report diagnostics (file:line:col, a code frame, a hint); exit 1 on any error.",
    details: `
      With \`--db URL\` (a postgres:// or mysql:// URL, or a SQLite file), SQL is also checked for that backend, and every
      statement is prepared and described by the live database (never run); tables the server would create are created in
      a transaction that is rolled back (PostgreSQL, SQLite) or as temporary tables (MySQL), so the database is left as it
      was. Declared changes not complete on the database are checked as done, and named.
    `,
    examples: [
      ["Check a project", "svc check --project examples/task_tracker"],
      ["Also check against a live PostgreSQL", "svc check --project . --db postgres://app@127.0.0.1/app"],
      [
        "Check SQL for TiDB, against a MySQL-protocol server",
        "svc check --project . --backend tidb --db mysql://root@127.0.0.1:4000/app",
      ],
    ],
  });

  module = Option.String("--module", { description: "Check one module folder" });
  app = Option.String("--app", { description: "Check every module folder in a folder" });
  project = Option.String("--project", { description: "Check a project folder with svc.toml" });
  db = Option.String("--db", {
    description: "Also check every statement against this live database (postgres:// or mysql:// URL, or a SQLite file)",
  });
  backend = Option.String("--backend", {
    description: "Check SQL for this backend (sqlite, postgres, mysql, tidb); default: the --db URL's, else svc.toml's",
  });
  target = Option.String({ required: false });

  async execute(): Promise<number> {
    const target = resolveTarget({
      module: this.module,
      app: this.app,
      project: this.project,
      positional: this.target,
    });
    if (typeof target === "string") {
      this.context.stderr.write(`svc check: ${target}\n`);
      return 2;
    }
    const backend = this.chosenBackend();
    if (backend instanceof Error) {
      this.context.stderr.write(`svc check: ${backend.message}\n`);
      return 2;
    }
    // Loaded here, not at the CLI's start: every other command would pay for the compiler.
    const { check, formatDiagnostics } = await import("../../index.js");
    const result = check(target, backend === undefined ? {} : { backend });
    let diagnostics: Diagnostic[] = result.diagnostics;
    const errorsBefore = diagnostics.some((d) => d.severity === "error");
    let pending: string | null = null;
    if (this.db !== undefined && backend !== undefined && result.model !== null && !errorsBefore) {
      const { checkAgainstDatabase, pendingLine } = await import("./check-db.js");
      const live = await checkAgainstDatabase(result, this.db, backend);
      diagnostics = sortDiagnostics([...diagnostics, ...live.diagnostics]);
      pending = pendingLine(live.pending, this.db);
    }
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    const warnings = diagnostics.length - errors;
    if (diagnostics.length)
      this.context.stdout.write(`${formatDiagnostics({ diagnostics, sources: result.sources })}\n\n`);
    if (pending !== null) this.context.stdout.write(`${pending}\n`);
    const against = this.db !== undefined && !errorsBefore ? ` (against ${redactUrl(this.db)})` : "";
    this.context.stdout.write(
      `svc check: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}${against}\n`,
    );
    return errors > 0 ? 1 : 0;
  }

  /** --backend, else the --db URL's scheme; a URL that contradicts --backend is refused, as the server refuses it. */
  private chosenBackend(): Backend | undefined | Error {
    // A path (or sqlite:path) is a SQLite file, as `svc migrate` and the server read --db.
    const fromUrl = this.db === undefined ? null : (backendOfUrl(this.db) ?? (/^[a-z][a-z0-9+.-]*:\/\//i.test(this.db) ? null : "sqlite"));
    if (this.db !== undefined && fromUrl === null) {
      return new Error(`--db ${redactUrl(this.db)} is not a postgres:// or mysql:// URL, nor a SQLite file`);
    }
    if (this.backend === undefined) return fromUrl ?? undefined;
    if (!(BACKENDS as readonly string[]).includes(this.backend)) {
      return new Error(`unknown backend ${JSON.stringify(this.backend)}; use one of ${BACKENDS.join(", ")}`);
    }
    const b = this.backend as Backend;
    if (fromUrl !== null && fromUrl !== b && !(b === "tidb" && fromUrl === "mysql")) {
      return new Error(`--backend ${b} does not match --db ${redactUrl(this.db!)}`);
    }
    return b;
  }
}
