// The table that makes webhook deliveries run exactly once (docs/language.md §2.4;
// deliveries.ts), and the insert that records one: the runtime's own (db/own-table.ts). A
// delivery id already there changes no row instead of failing, which would abort a
// PostgreSQL transaction.

import type { StatementSpec, TableSpec } from "../contract/index.js";
import { ownStatement, ownTable } from "../db/index.js";

export const DELIVERIES_TABLE = "svc_webhook_deliveries";
const T = DELIVERIES_TABLE;

export const deliveriesTable: TableSpec = ownTable({
  name: T,
  columns: [
    // SHA-256 (hex) of the webhook's name and the provider's delivery id.
    { name: "id", kind: "key" },
    // The webhook, as `module.name`.
    { name: "webhook", kind: "text" },
    // The provider's delivery id.
    { name: "delivery", kind: "text" },
    { name: "received_at", kind: "now" },
  ],
  indexes: [],
});

/** Args `(id, webhook, delivery)`: one row unless the id is there; the rows changed tell which. */
export const recordDeliverySql: StatementSpec = ownStatement(T, "record", 3, (q, p, d) =>
  // IGNORE turns only the duplicate key into "no row changed" here: the other errors it would
  // hide (truncation, bad types) cannot happen with these columns.
  `${d === "mysql" ? "INSERT IGNORE INTO" : "INSERT INTO"} ${q(T)} (${q("id")}, ${q("webhook")}, ${q("delivery")}) ` +
  `VALUES (${p(0)}, ${p(1)}, ${p(2)})${d === "mysql" ? "" : " ON CONFLICT DO NOTHING"}`,
);
