// An answer that replays a stored one: its header, and a mark metrics count it by
// (runtime/metrics/http-series.ts). Reading the header back took a lowercased lookup in Node's
// header store on every 2xx answer, about 1,000 instructions a request; the mark is a WeakSet's.

import type { ServerResponse } from "node:http";

/** Set on an answer that was stored by an earlier call with the same key. */
export const REPLAYED_HEADER = "Idempotent-Replayed";
const replayed = new WeakSet<ServerResponse>();

export function markReplayed(res: ServerResponse): void {
  res.setHeader(REPLAYED_HEADER, "true");
  replayed.add(res);
}

export function wasReplayed(res: ServerResponse): boolean {
  return replayed.has(res);
}
