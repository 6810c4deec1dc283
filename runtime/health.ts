// GET /health (docs/language.md §3, docs/service.md §4.5): `{"status":"ok","version","uptime_seconds"}`,
// or 503 with `"status":"unavailable"` when the database does not answer a ping within
// PING_TIMEOUT_MS. The reason goes to the log, not to the caller.

import type { ServerResponse } from "node:http";
import type { Logger } from "./log.js";
import type { Database } from "./types.js";

export const HEALTH_PATH = "/health";
export const PING_TIMEOUT_MS = 1000;

export interface HealthInfo {
  version: string;
  /** `Date.now()` when the server started. */
  startedAt: number;
}

/** Answers a health check; never throws. */
export async function sendHealth(
  res: ServerResponse,
  db: Database,
  info: HealthInfo,
  log: Logger,
  timeoutMs = PING_TIMEOUT_MS,
): Promise<void> {
  const problem = await pingProblem(db, timeoutMs);
  if (problem !== null) log.warn("health check failed", { reason: problem });
  const body = JSON.stringify({
    status: problem === null ? "ok" : "unavailable",
    version: info.version,
    uptime_seconds: Math.floor((Date.now() - info.startedAt) / 1000),
  });
  if (res.headersSent || res.destroyed) return;
  res.writeHead(problem === null ? 200 : 503, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    // A cached "ok" would hide an outage from whoever polls.
    "Cache-Control": "no-store",
  });
  res.end(body);
}

/** Null when the database answered in time, else why not. */
async function pingProblem(db: Database, timeoutMs: number): Promise<string | null> {
  let answer: Promise<void> | void;
  try {
    answer = db.ping();
  } catch (err) {
    return `database ping failed: ${err instanceof Error ? err.message : String(err)}`;
  }
  // An in-process database (SQLite) answered already: no timer, no race.
  if (answer === undefined) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, `database did not answer within ${timeoutMs} ms`);
  });
  try {
    const ping = answer.then(
      () => null,
      (err: unknown) => `database ping failed: ${err instanceof Error ? err.message : String(err)}`,
    );
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
