// Rows out of postgres.js's answer. A statement's rows arrive in postgres.js's Result (an
// Array subclass), and the query (a Promise subclass) and the promises awaiting it hold
// that Result as their value. Under load on a networked database some of those objects
// outlive two young-generation collections and are moved to the old generation, from where
// they keep whatever they reference alive until the next full collection, dead or not: on
// list_tasks that was every row of every request (about 2 MB promoted a scavenge and a full
// collection every few hundred ms, measured with --trace-gc-nvp). Taking the rows into an
// array of svc's own and emptying the Result leaves those objects holding an empty array.

/** The rows of `result` in a plain array; `result` is left empty. */
export function takeRows<R>(result: R[]): R[] {
  const rows = new Array<R>(result.length);
  for (let i = 0; i < result.length; i++) rows[i] = result[i];
  result.length = 0;
  return rows;
}
