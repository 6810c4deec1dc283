// The database's connection pools (docs/operations.md, Metrics: svc_db_pool_*): gauges read at
// each scrape from the pools themselves, and the acquire-time histogram the pools observe
// through their `acquired` hook, which stays null (one null check) when metrics are off.
// SQLite has one connection and no pool: its database lists none, and these series are absent.

import type { ConnectionPool } from "../contract/index.js";
import type { Figures } from "./figures.js";

/** Connection waits are short: the buckets start at 0.1 ms; a wait that got no connection is not counted. */
const ACQUIRE_BOUNDS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export function poolFigures(figures: Figures, pools: readonly ConnectionPool[]): void {
  if (pools.length === 0) return;
  const gauge = (name: string, help: string, value: (pool: ConnectionPool) => number): void =>
    figures.gauge({ name, help, read: () => pools.map((pool) => ({ labels: { pool: pool.name }, value: value(pool) })) });
  gauge("svc_db_pool_connections_in_use", "Connections of the pool handed out and not given back.", (p) => p.inUse);
  gauge("svc_db_pool_connections_idle", "Connections of the pool's pool_size not handed out.", (p) => p.idle);
  gauge("svc_db_pool_waiting", "Statements or transactions waiting for a connection of the pool.", (p) => p.queued);
  const acquire = figures.histogram(
    "svc_db_pool_acquire_duration_seconds",
    "Time from asking the pool for a connection to getting one (0 when one was free).",
    ACQUIRE_BOUNDS,
  );
  for (const pool of pools) pool.acquired = acquire.cell({ pool: pool.name });
}
