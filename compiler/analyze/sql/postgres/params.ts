import type { ScalarType } from "../../model/model.js";

// PostgreSQL infers each `$N`'s type from where it stands, and fails to prepare a statement
// where it cannot (`SELECT $1`, `$1 IS NULL` alone: "could not determine data type of
// parameter $1") or where two uses disagree. svc knows every parameter's declared type,
// so it says it: `$1::bigint`. The cast also makes `@a / @b` on floats divide as floats,
// as it does on SQLite, where PostgreSQL would otherwise divide integers.

export const POSTGRES_TYPES: Record<ScalarType, string> = {
  id: "text",
  text: "text",
  enum: "text",
  int: "bigint",
  float: "double precision",
  bool: "boolean",
  timestamp: "timestamptz",
  json: "jsonb",
  file: "jsonb",
};

/** `$N` for the parameter at `index` (0-based), cast to its declared type when known. */
export function postgresPlaceholder(index: number, type?: ScalarType): string {
  return type === undefined ? `$${index + 1}` : `$${index + 1}::${POSTGRES_TYPES[type]}`;
}

/**
 * A `list<T>` argument, bound as its JSON text, as the table of its items. The items come
 * out as text and are cast back to the item's type, so `x IN @ids` compares like with like.
 */
export function postgresList(index: number, item: ScalarType): string {
  return `(SELECT CAST(value AS ${POSTGRES_TYPES[item]}) FROM jsonb_array_elements_text($${index + 1}::jsonb) AS svc_list(value))`;
}
