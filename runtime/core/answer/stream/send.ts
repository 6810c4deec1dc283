// A query's rows streamed as CSV or NDJSON (docs/language.md §2.4, "Streamed answers"): the
// database hands its rows over in batches (Database.stream), each batch is written as it
// comes, and the next is read only once the socket has taken it ('drain'), so a large
// answer never sits in memory whole. A client that goes away stops the query, and its
// connection goes back to the pool. An error before the first row answers as any other
// (the app's error shape); after it, the status is sent already, so the answer is cut
// short (the connection is closed without the last chunk).

import type { ServerResponse } from "node:http";
import type { CallInput, Database, Row, ShapedAnswer, StreamSpec } from "../../../contract/index.js";
import { HttpError } from "../../errors.js";
import { csvHeader, csvLine, ndjsonLine } from "./format.js";

/** Rows read from the database at a time. */
export const STREAM_BATCH = 500;

/** Resolves when `res` can take more, or is gone; true while the client is there. */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve(!res.destroyed);
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** `bodyless`: a HEAD request, answered the head alone; `close`: the connection closes after the answer. */
export async function sendStream(
  res: ServerResponse,
  db: Database,
  spec: StreamSpec,
  input: CallInput,
  head: ShapedAnswer,
  { bodyless, close }: { bodyless: boolean; close: boolean },
): Promise<void> {
  if (db.stream === undefined) throw new HttpError(500, "this backend cannot stream", { code: "SVC_ERR_INTERNAL" });
  if (close) res.setHeader("Connection", "close");
  const args = spec.values(input);
  const line = spec.format === "csv" ? csvLine : ndjsonLine;
  let started = false;
  const start = (): void => {
    started = true;
    if (head.headers !== null) for (const [name, value] of head.headers) if (value !== null) res.setHeader(name, value);
    res.writeHead(head.status, { "Content-Type": head.type! });
    if (spec.format === "csv" && !bodyless) res.write(csvHeader(spec.columns));
  };
  if (!bodyless) {
    await db.stream(spec.stmt, args, STREAM_BATCH, (rows: Row[]) => {
      if (res.destroyed) return false;
      if (!started) start();
      let chunk = "";
      for (const row of rows) chunk += line(row, spec.columns);
      if (res.write(chunk)) return true;
      return drained(res);
    });
  }
  if (res.destroyed) return;
  if (!started) start();
  res.end();
}
