// jq's value kinds over JSON values, and jq's object key order.

export function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "object" ? "object" : t;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

// ---------------------------------------------------------------- object key order

// jq keeps object keys in insertion order; JavaScript puts integer-like keys first. Objects
// built here whose insertion order JavaScript cannot represent remember it on the side.
const insertionOrder = new WeakMap<object, string[]>();
const INDEX_LIKE = /^(?:0|[1-9]\d{0,9})$/;

function isIndexLike(k: string): boolean {
  return INDEX_LIKE.test(k) && Number(k) < 4294967295;
}

export function keysOf(o: Record<string, unknown>): string[] {
  return insertionOrder.get(o) ?? Object.keys(o);
}

/** Adds `k` to an object under construction, keeping jq's key order. */
export function put(o: Record<string, unknown>, k: string, v: unknown): void {
  if (Object.hasOwn(o, k)) {
    o[k] = v;
    return;
  }
  const order = insertionOrder.get(o);
  if (order) order.push(k);
  else if (isIndexLike(k) && Object.keys(o).some((x) => !isIndexLike(x) || Number(x) > Number(k))) {
    insertionOrder.set(o, [...Object.keys(o), k]);
  }
  if (k === "__proto__") Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

/** `{(k1): v1, (k2): v2, …}` with computed keys. */
export function copyObject(o: Record<string, unknown>): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  for (const k of keysOf(o)) put(r, k, o[k]);
  return r;
}
