// Rows out of postgres.js's answer. A statement's rows arrive in postgres.js's Result (an
// Array subclass), and the query (a Promise subclass) and the promises awaiting it hold
// that Result as their value. Under load those rows outlived the young-generation
// collections that should have freed them: every row of every list_tasks request was
// promoted (about 2 MB a scavenge, a full collection every few hundred ms; --trace-gc-nvp),
// and a full heap snapshot found none of them alive, so what held them was itself garbage
// already in the old generation, which a scavenge takes as live: the query's own closures,
// allocated there while its constructor ran unoptimized (gate.ts, `start`, says how that was
// ended). Emptied, the Result holds no rows even where a query still outlives a scavenge.

/** The rows of `result` in a plain array; `result` is left empty. */
export function takeRows<R>(result: R[]): R[] {
  const rows = new Array<R>(result.length);
  for (let i = 0; i < result.length; i++) rows[i] = result[i];
  result.length = 0;
  return rows;
}
