// The table that makes webhook deliveries run exactly once (docs/language.md §2.4; runtime/webhooks/
// deliveries.ts uses it). It is declared like a resource so the same DDL code makes it for
// every dialect and the server creates it at start with the resources' tables; the insert
// that records a delivery is written per dialect so that a delivery id already there
// changes no row instead of failing (which would abort a PostgreSQL transaction).

import type { DeliveryStoreModel, DialectSql, FieldModel } from "../model/model.js";
import { allTableDdl } from "../sql/ddl/index.js";

export const DELIVERIES_TABLE = "svc_webhook_deliveries";

function field(name: string, type: FieldModel["type"], doc: string, extra: Partial<FieldModel> = {}): FieldModel {
  return { name, type, enumValues: [], nullable: false, default: null, doc, ...extra };
}

const FIELDS: FieldModel[] = [
  field("id", "id", "SHA-256 (hex) of the webhook's name and the provider's delivery id."),
  field("webhook", "text", "The webhook, as `module.name`."),
  field("delivery", "text", "The provider's delivery id."),
  field("received_at", "timestamp", "When the delivery was handled.", { default: { kind: "now" } }),
];

const COLUMNS = ["id", "webhook", "delivery"];

function insert(quote: (name: string) => string, verb: string, placeholders: string[], suffix: string): DialectSql {
  const columns = COLUMNS.map(quote).join(", ");
  return {
    text: `${verb} ${quote(DELIVERIES_TABLE)} (${columns}) VALUES (${placeholders.join(", ")})${suffix}`,
    slots: [0, 1, 2],
  };
}

const doubleQuoted = (name: string) => `"${name}"`;
const backQuoted = (name: string) => `\`${name}\``;

export function deliveryStore(): DeliveryStoreModel {
  const ddl = allTableDdl({
    module: "svc",
    name: DELIVERIES_TABLE,
    doc: "Webhook deliveries already handled.",
    primaryKey: ["id"],
    fields: FIELDS,
    indexes: [],
  });
  return {
    table: DELIVERIES_TABLE,
    ddl,
    record: {
      name: `${DELIVERIES_TABLE}.record`,
      sql: {
        source: `INSERT INTO ${DELIVERIES_TABLE} (id, webhook, delivery) VALUES (@id, @webhook, @delivery) -- unless the id is there`,
        args: COLUMNS,
        dialects: {
          sqlite: insert(doubleQuoted, "INSERT INTO", ["?", "?", "?"], " ON CONFLICT DO NOTHING"),
          postgres: insert(doubleQuoted, "INSERT INTO", ["$1", "$2", "$3"], " ON CONFLICT DO NOTHING"),
          // IGNORE turns only the duplicate key into "no row changed" here: the other
          // errors it would hide (truncation, bad types) cannot happen with these columns.
          mysql: insert(backQuoted, "INSERT IGNORE INTO", ["?", "?", "?"], ""),
        },
        readonly: false,
      },
    },
  };
}
