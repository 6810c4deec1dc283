import { Command, Option } from "clipanion";
import { backendOfUrl } from "../../../runtime/start/options.js";
import { redactUrl } from "../../../runtime/db/net/url.js";
import { JobsAdmin, type JobRow } from "../../../runtime/jobs/admin.js";
import type { Database } from "../../../runtime/contract/index.js";

const STATES = ["queued", "running", "failed"];

/** Opens `--db` (a SQLite file, or a postgres:// or mysql:// URL) as the server would. */
async function open(db: string): Promise<Database> {
  const { openDatabase } = await import("../../../runtime/db/index.js");
  return openDatabase({ backend: backendOfUrl(db) ?? "sqlite", db });
}

abstract class JobsCommand extends Command {
  db = Option.String("--db", { required: true, description: "The server's database: a SQLite file, or a postgres:// or mysql:// URL" });

  protected async withAdmin(run: (admin: JobsAdmin) => Promise<number>): Promise<number> {
    let db: Database;
    try {
      db = await open(this.db);
    } catch (err) {
      this.context.stderr.write(`svc jobs: cannot open ${redactUrl(this.db)}: ${err instanceof Error ? err.message : String(err)}\n`);
      return 2;
    }
    try {
      return await run(new JobsAdmin(db));
    } catch (err) {
      this.context.stderr.write(`svc jobs: ${err instanceof Error ? err.message : String(err)} (has a server with jobs run on this database?)\n`);
      return 1;
    } finally {
      await db.close();
    }
  }

  /** A command on one job by id: 0 when `act` found it, 1 (saying `missing`) when it did not. */
  protected onOne(act: (admin: JobsAdmin) => Promise<boolean>, done: string, missing: string): Promise<number> {
    return this.withAdmin(async (admin) => {
      if (await act(admin)) {
        this.context.stdout.write(`${done}\n`);
        return 0;
      }
      this.context.stderr.write(`${missing}\n`);
      return 1;
    });
  }
}

export class JobsListCommand extends JobsCommand {
  static override paths = [["jobs", "list"]];
  static override usage = Command.Usage({
    description: "List jobs (queued, running, failed) in a server's database, the next to run first.",
    examples: [
      ["Failed jobs with their last error", "svc jobs list --db postgres://app@127.0.0.1/app --state failed"],
      ["As JSON", "svc jobs list --db data/app.db --json"],
    ],
  });

  state = Option.String("--state", { description: "Only jobs in this state: queued, running or failed" });
  limit = Option.String("--limit", "100", { description: "At most this many jobs (default 100)" });
  json = Option.Boolean("--json", false, { description: "One JSON array instead of a table" });

  async execute(): Promise<number> {
    if (this.state !== undefined && !STATES.includes(this.state)) {
      this.context.stderr.write(`svc jobs list: --state must be one of ${STATES.join(", ")}\n`);
      return 2;
    }
    const limit = Number(this.limit);
    if (!Number.isInteger(limit) || limit < 1) {
      this.context.stderr.write("svc jobs list: --limit must be a whole number from 1\n");
      return 2;
    }
    return this.withAdmin(async (admin) => {
      const rows = await admin.list(this.state ?? "", limit);
      this.context.stdout.write(this.json ? `${JSON.stringify(rows, null, 2)}\n` : table(rows));
      return 0;
    });
  }
}

export class JobsRetryCommand extends JobsCommand {
  static override paths = [["jobs", "retry"]];
  static override usage = Command.Usage({
    description: "Queue a failed job again, now, with its attempts counted afresh.",
    examples: [["Retry one job", "svc jobs retry 01J8Z3… --db data/app.db"]],
  });

  id = Option.String({ required: true });

  async execute(): Promise<number> {
    return this.onOne((admin) => admin.retry(this.id), `queued ${this.id} again`, `svc jobs retry: no failed job ${this.id}`);
  }
}

export class JobsCancelCommand extends JobsCommand {
  static override paths = [["jobs", "cancel"]];
  static override usage = Command.Usage({
    description: "Delete a queued or failed job; a running one is left to finish.",
    examples: [["Cancel one job", "svc jobs cancel 01J8Z3… --db data/app.db"]],
  });

  id = Option.String({ required: true });

  async execute(): Promise<number> {
    return this.onOne((admin) => admin.cancel(this.id), `cancelled ${this.id}`, `svc jobs cancel: no queued or failed job ${this.id}`);
  }
}

function table(rows: JobRow[]): string {
  if (rows.length === 0) return "no jobs\n";
  const head = ["id", "job", "queue", "state", "attempt", "run_at", "last_error"];
  const cells = rows.map((r) => [r.id, r.job, r.queue, r.state, `${r.attempt}/${r.max_attempts}`, r.run_at, r.last_error.replace(/\s+/g, " ").slice(0, 80)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  return [head, ...cells].map((c) => c.map((v, i) => v.padEnd(widths[i])).join("  ").trimEnd()).join("\n") + "\n";
}
