// One plan step as the MySQL/MariaDB and SQLite writers make it: online and not lossy unless
// said, a batch only when `repeat`. Whether a step runs in a transaction is the backend's:
// MySQL's DDL commits on its own, SQLite's phase is one transaction.

import type { MigrationStep, Phase } from "../contract/evolve.js";

export interface StepOptions {
  repeat?: boolean;
  transactional?: boolean;
  lossy?: boolean;
  online?: boolean;
}

export function makeStep(
  change: string,
  phase: Phase,
  describe: string,
  sql: string,
  locks: string,
  transactional: boolean,
  extra: StepOptions = {},
): MigrationStep {
  return {
    change,
    phase,
    describe,
    sql,
    ...(extra.repeat ? { repeat: true as const } : {}),
    online: extra.online ?? true,
    locks,
    lossy: extra.lossy ?? false,
    transactional: extra.transactional ?? transactional,
  };
}
