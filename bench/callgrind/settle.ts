// When a server is warm: the instruction count per request of a warm-up batch stops moving.
// Small warm-ups mislead (V8 tiers code up over thousands of calls, and not every server at the
// same pace), so batches repeat until two in a row agree, with a cap so a server that never
// settles still gets measured, flagged. A batch with failed requests (a slow start can make a
// server's own deadlines fire under valgrind) ran other code: it is no figure to compare.

export interface SettleRule {
  /** Two consecutive batches within this fraction of each other (0.02 = 2 %) count as settled. */
  tolerance: number;
  /** After this many batches, measure anyway and say the figure had not settled. */
  maxBatches: number;
}

export type SettleVerdict = "settled" | "more" | "gave-up";

/**
 * What to do after the warm-up batches so far, given their instructions per request in order
 * (null for a batch in which some request failed).
 */
export function settleVerdict(perRequest: readonly (number | null)[], rule: SettleRule): SettleVerdict {
  const n = perRequest.length;
  if (n >= 2) {
    const [before, last] = [perRequest[n - 2], perRequest[n - 1]];
    if (before !== null && last !== null && Math.abs(last - before) <= rule.tolerance * before) return "settled";
  }
  return n >= rule.maxBatches ? "gave-up" : "more";
}
