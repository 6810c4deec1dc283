// Idempotency keys for action calls (docs/language.md, "Idempotency keys").

export { idempotencyKey, keptKey, parseKey, IDEMPOTENCY_HEADER, MAX_KEY_LENGTH } from "./key.js";
export { requestText, canonicalJson } from "./fingerprint.js";
export { rowKeys, type KeyedCall, type RowKeys } from "./keyed.js";
export {
  IdempotencyStore,
  KEY_LIFETIME_MS,
  SWEEP_INTERVAL_MS,
  type IdempotentAnswer,
  type MsClock,
} from "./store.js";

export { REPLAYED_HEADER, markReplayed, wasReplayed } from "./replayed.js";
export { callEndpoint, authorizeFirst, callerId } from "./call.js";
export { IDEMPOTENCY_TABLE, idempotencyStatements, idempotencyTable } from "./table.js";
