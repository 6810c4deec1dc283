// svc's own tables for a spec, created at start beside the app's: each feature that keeps
// rows owns its table and statements in every dialect (its table.ts, db/own-table.ts), and
// the generated server only says which features it uses. Rate-limit counters are added where
// the limiter's store is chosen (limits/index.ts), since an in-memory server keeps none.

import { sessionStatements, sessionsTable } from "../auth/sessions-table.js";
import { idempotencyStatements, idempotencyTable } from "../idempotency/table.js";
import { keepsRevocations, revocationStatementList, revocationsTable } from "../revocation/index.js";
import { jobStatementList, jobsTable, schedulesTable } from "../jobs/table.js";
import { outboxStatementList, outboxTables } from "../outbox/table.js";
import type { Dialect, ServerSpec, StatementSpec, TableSpec } from "../contract/index.js";
import { deliveriesTable, recordDeliverySql } from "../webhooks/table.js";
import { historyTable } from "../migrate/history.js";

type Uses = Pick<ServerSpec, "auth" | "webhooks" | "idempotency" | "jobs" | "events"> & Partial<Pick<ServerSpec, "tables" | "schema">>;

/** A build that declares schema changes keeps their history (runtime/migrate/history.ts). */
function declaresChanges(spec: Uses): boolean {
  return (spec.schema?.dropTables.length ?? 0) > 0 || (spec.tables ?? []).some((t) => t.changes !== undefined);
}

function owned(spec: Uses): { table: TableSpec; statements: readonly StatementSpec[] }[] {
  const out: { table: TableSpec; statements: readonly StatementSpec[] }[] = [];
  if (spec.webhooks !== undefined && spec.webhooks.length > 0) out.push({ table: deliveriesTable, statements: [recordDeliverySql] });
  if (spec.idempotency === true) out.push({ table: idempotencyTable, statements: Object.values(idempotencyStatements) });
  if (spec.auth?.sessions !== undefined) out.push({ table: sessionsTable, statements: Object.values(sessionStatements) });
  if (keepsRevocations(spec)) out.push({ table: revocationsTable, statements: revocationStatementList });
  if (spec.jobs !== undefined) {
    out.push({ table: jobsTable, statements: jobStatementList }, { table: schedulesTable, statements: [] });
  }
  if (spec.events !== undefined) {
    const [events, deliveries] = outboxTables;
    out.push({ table: events, statements: outboxStatementList }, { table: deliveries, statements: [] });
  }
  if (declaresChanges(spec)) out.push({ table: historyTable, statements: [] });
  return out;
}

/** The runtime's own tables for `spec`. */
export function ownTables(spec: Uses): TableSpec[] {
  return owned(spec).map((o) => o.table);
}

/**
 * The runtime's own statements for `spec`, prepared at start beside the app's; those `dialect`
 * has (a job's claim takes another path on SQLite: jobs/claim.ts).
 */
export function ownStatements(spec: Uses, dialect: Dialect): StatementSpec[] {
  return owned(spec)
    .flatMap((o) => o.statements)
    .filter((s) => s.sql[dialect] !== undefined);
}
