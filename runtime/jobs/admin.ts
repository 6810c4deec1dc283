// What `svc jobs` does against a database (docs/operations.md "Jobs"): lists jobs, queues a
// failed one again with its attempts reset, or deletes one that is not running.

import type { Database, Row } from "../contract/index.js";
import { JOBS_TABLE, jobStatements, statement } from "./table.js";

const COLUMNS = ["id", "job", "queue", "state", "attempt", "max_attempts", "run_at", "last_error"];

export const adminStatements = {
  /** Args `(state, state, limit)`: jobs of a state ('' for all), the next to run first. */
  list: statement("admin.list", 3, (q, p) =>
    `SELECT ${COLUMNS.map(q).join(", ")} FROM ${q(JOBS_TABLE)} WHERE (${p(0)} = '' OR ${q("state")} = ${p(1)}) ORDER BY ${q("run_at")}, ${q("id")} LIMIT ${p(2)}`,
  ),
  /** Args `(now, id)`: a failed job queued again, its attempts counted afresh. */
  retry: statement("admin.retry", 2, (q, p) =>
    `UPDATE ${q(JOBS_TABLE)} SET ${q("state")} = 'queued', ${q("attempt")} = 0, ${q("run_at")} = ${p(0)}, ${q("last_error")} = '' WHERE ${q("id")} = ${p(1)} AND ${q("state")} = 'failed'`,
  ),
  /** Args `(id)`: deletes a queued or failed job; a running one is left to finish. */
  cancel: statement("admin.cancel", 1, (q, p) => `DELETE FROM ${q(JOBS_TABLE)} WHERE ${q("id")} = ${p(0)} AND ${q("state")} <> 'running'`),
};

export interface JobRow {
  id: string;
  job: string;
  queue: string;
  state: string;
  attempt: number;
  max_attempts: number;
  run_at: string;
  last_error: string;
}

export class JobsAdmin {
  constructor(private readonly db: Database) {
    db.prepare([...Object.values(adminStatements), jobStatements.stats]);
  }

  async list(state: string, limit: number): Promise<JobRow[]> {
    const rows = await this.db.all(adminStatements.list, [state, state, limit]);
    return rows.map((r: Row) => ({
      id: String(r.id), job: String(r.job), queue: String(r.queue), state: String(r.state),
      attempt: Number(r.attempt), max_attempts: Number(r.max_attempts),
      run_at: new Date(Number(r.run_at)).toISOString(), last_error: String(r.last_error),
    }));
  }

  /** Whether the job was failed and is now queued. */
  async retry(id: string): Promise<boolean> {
    return (await this.db.run(adminStatements.retry, [Date.now(), id])) === 1;
  }

  /** Whether a queued or failed job was deleted. */
  async cancel(id: string): Promise<boolean> {
    return (await this.db.run(adminStatements.cancel, [id])) === 1;
  }
}
