// Graceful stop of one serving process, in docs/service.md §8's order: (1) stop accepting new
// connections; (2) let in-flight requests finish, up to the grace period; (3) is the
// primary's (cluster/index.ts); (4) close the database; (5) the caller exits 0.
//
// "In flight" means a request the handler has started: its response is still being made
// or sent, and it closes its connection after (`Connection: close`, server.ts).
// Connections with nothing in flight (idle keep-alive ones, ones still sending headers) get
// a short moment first: a request the client had already sent, still in the network or in
// the socket buffer, then reaches the handler and is answered 503 with `Connection: close`,
// an answer the client can act on, instead of being lost to a reset. After that moment they
// are closed, and so is every connection that falls idle later.

import type { Server } from "node:http";
import { Server as NetServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../core/log.js";
import { connectionsWithoutRequest, stopBackground } from "../core/connections.js";
import type { Database } from "../contract/index.js";

export const SHUTDOWN_GRACE_MS = 30_000;
/** How long connections without a request in flight may still bring one (to be answered 503). */
export const IDLE_GRACE_MS = 1000;
const IDLE_SWEEP_MS = 100;

/** Stops `server` and closes `db`; resolves when both are done. Never rejects. */
export async function drainAndClose(
  server: Server,
  db: Database,
  log: Logger,
  graceMs = SHUTDOWN_GRACE_MS,
  /** Stops what else uses the database (runtime/jobs), alongside the drain, within the same grace. */
  alongside?: (graceMs: number) => Promise<void> | undefined,
): Promise<void> {
  const others = alongside?.(graceMs)?.catch((err: unknown) => {
    log.error("stopping jobs failed", { error: err instanceof Error ? err.message : String(err) });
  });
  // http.Server#close would also drop idle keep-alive connections at once, and stop Node's
  // read-timeout checks (timeouts.ts) for the rest of the drain; the net.Server close that
  // it extends only stops accepting.
  const drained = new Promise<void>((done) => NetServer.prototype.close.call(server, () => done()));
  // Background work stops with the listener: no new deliveries; those in flight are cut and their leases given back.
  const background = stopBackground(server);
  const started = Date.now();
  if (connectionsWithoutRequest(server).length > 0) await Promise.race([drained, sleep(IDLE_GRACE_MS)]);
  const closeIdle = (): void => {
    for (const socket of connectionsWithoutRequest(server)) socket.destroy();
  };
  closeIdle();
  const sweep = setInterval(closeIdle, IDLE_SWEEP_MS);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((done) => {
    timer = setTimeout(done, Math.max(0, graceMs - (Date.now() - started)), "late");
  });
  if ((await Promise.race([drained, late])) === "late") {
    log.warn("in-flight requests did not finish in time; closing their connections", { grace_ms: graceMs });
    server.closeAllConnections();
    await drained;
  }
  clearTimeout(timer);
  clearInterval(sweep);
  await Promise.all([others, background]);
  try {
    await db.close();
  } catch (err) {
    log.error("closing the database failed", { error: err instanceof Error ? err.message : String(err) });
  }
}
