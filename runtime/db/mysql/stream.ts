// A query's rows a batch at a time, for streamed answers (runtime/core/answer/stream): the
// statement's result is read row by row off the connection (mysql2's 'result' events on a
// prepared statement, as execRows runs it), and the connection is paused while a batch waits
// for the socket to drain. A client gone away ends the query: the connection is destroyed
// (MySQL would otherwise send the rest) and the pool opens another in its place.

import type { FieldPacket, PoolConnection } from "mysql2";
import type { Row } from "../../contract/index.js";
import type { Scalar } from "../net/args.js";
import { isoRows } from "./rows.js";

export type Each = (rows: Row[]) => boolean | Promise<boolean>;

/** Resolves true when the stream was stopped early (the connection is gone then), false when every row was handed over. */
export function streamRows(conn: PoolConnection, text: string, values: readonly Scalar[], batch: number, each: Each): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const wire = values.map((v) => (typeof v === "bigint" ? v.toString() : v));
    const query = conn.execute(text, wire);
    let fields: FieldPacket[] | undefined;
    let rows: Row[] = [];
    let done = false;
    const stop = (): void => {
      done = true;
      conn.destroy();
      resolve(true);
    };
    const fail = (err: unknown): void => {
      if (done) return;
      done = true;
      reject(err);
    };
    const flush = (then: () => void): void => {
      const out = isoRows(rows, fields);
      rows = [];
      const go = each(out);
      if (go === true) return then();
      if (go === false) return stop();
      conn.pause();
      go.then(
        (ok) => {
          if (!ok) return stop();
          conn.resume();
          then();
        },
        (err: unknown) => {
          conn.destroy();
          fail(err);
        },
      );
    };
    query.on("fields", (f: FieldPacket[]) => (fields = f));
    query.on("result", (row: Row) => {
      if (done) return;
      rows.push(row);
      if (rows.length >= batch) flush(() => undefined);
    });
    query.on("error", fail);
    query.on("end", () => {
      if (done) return;
      const finish = () => {
        if (done) return;
        done = true;
        resolve(false);
      };
      if (rows.length > 0) flush(finish);
      else finish();
    });
  });
}
