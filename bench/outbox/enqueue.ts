// What `emit` adds to an action's transaction on SQLite (docs/language.md §2.8): the cost of
// one transaction that writes one row, without and with an event, in instructions under
// callgrind. Run by bench/outbox/measure.sh: warm up, then `callgrind_control -z`, N
// transactions, `callgrind_control -d`; the difference of the two variants, per
// transaction, is emit's cost.
//
//   node build/bench/outbox/enqueue.js <plain|emit> <N>   (reads "go" on stdin twice)

import { createInterface } from "node:readline";
import { openDatabase } from "../../runtime/db/index.js";
import { emit, outboxStatementList, outboxTables } from "../../runtime/outbox/index.js";
import { revocationStatements, revocationsTable } from "../../runtime/revocation/index.js";
import type { CallContext } from "../../runtime/contract/index.js";

const variant = process.argv[2] === "emit" ? "emit" : "plain";
const n = Number(process.argv[3] ?? 1000);
const db = await openDatabase({ backend: "sqlite", db: ":memory:" });
await db.migrate([revocationsTable, ...outboxTables]);
await db.prepare([...Object.values(revocationStatements), ...outboxStatementList]);
const ctx = { requestId: "bench" } as CallContext;
let i = 0;

async function once(): Promise<void> {
  const k = i++;
  await db.transaction(async (tx) => {
    await tx.run(revocationStatements.revoke, [`id-${k}`, `subject-${k}`, k, k + 1]);
    if (variant === "emit") await emit(tx, ctx, "task_completed", { id: `id-${k}`, title: "Benchmark task", completed_at: "2026-11-28T21:00:00.000Z" });
  });
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
for (let w = 0; w < 2000; w++) await once();
process.stdout.write("warm\n");
await lines.next();
for (let w = 0; w < n; w++) await once();
process.stdout.write("done\n");
await lines.next();
await db.close();
process.exit(0);
