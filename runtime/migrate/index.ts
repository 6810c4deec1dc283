// Schema changes beyond additive (docs/migrations.md): what the database adapters use to plan
// and run declared changes at start and for `svc migrate`.

export type { ChangeTarget, ChangeWriter, LiveColumnInfo, PhaseSteps } from "./writer.js";
export type { AppliedChange, MigrationSession } from "./engine.js";
export type { ChangeStatus, EvolvePlan, HistoryRow, LiveSchema, PlannedChange } from "./plan.js";
export type { StartPlan } from "./at-start.js";
export { readHistory, runPhase, withMigrationLock } from "./engine.js";
export { changesToRun, ownedColumns, planChanges } from "./plan.js";
export { openRetypes, planAtStart, retypeWaiting } from "./at-start.js";
export { mysqlWriter } from "./mysql.js";
export { sqliteWriter } from "./sqlite.js";
export { postgresWriter, viewSchemaName } from "./postgres.js";
export { PG_MIGRATE_LOCK_TIMEOUT, postgresSession } from "./postgres-session.js";
export { viewDatabaseName } from "./mysql-views.js";
