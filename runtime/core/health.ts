// GET /health (docs/language.md §3, docs/service.md §4.5): `{"status":"ok","version","uptime_seconds"}`,
// or 503 with `"status":"unavailable"` when the database does not answer a ping within
// PING_TIMEOUT_MS. The reason goes to the log, not to the caller.

import type { ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { endWithBody, writeJsonHead } from "./answer/index.js";
import type { Logger } from "./log.js";
import type { Database } from "../contract/index.js";

export const HEALTH_PATH = "/health";
export const PING_TIMEOUT_MS = 1000;

export interface HealthInfo {
  /**
   * `performance.now()` when the server started: uptime is read off the monotonic clock, which
   * a wall-clock step cannot move (and is cheaper to read than Date.now()).
   */
  startedAt: number;
  /** The answers up to the uptime, made once (the version escaped): `{"status":"ok","version":…,"uptime_seconds":`. */
  okHead: string;
  unavailableHead: string;
  /** Whether the version is ASCII: then an answer's size in bytes is its length. */
  ascii: boolean;
  /**
   * More members of the answer, each `,"name":value`, as of the last time they were measured
   * (the outbox's depth: runtime/outbox); absent when there are none.
   */
  detail?: () => string;
}

export function healthInfo(version: string, startedAt = performance.now()): HealthInfo {
  const versionJson = JSON.stringify(version);
  const head = (status: string): string => `{"status":"${status}","version":${versionJson},"uptime_seconds":`;
  return {
    startedAt,
    okHead: head("ok"),
    unavailableHead: head("unavailable"),
    ascii: Buffer.byteLength(versionJson) === versionJson.length,
  };
}

/**
 * Answers a health check; never throws. With an in-process database (SQLite) the ping has
 * answered before this returns, and so has the check: no promise, timer or race on the way.
 */
export function sendHealth(
  res: ServerResponse,
  db: Database,
  info: HealthInfo,
  log: Logger,
  timeoutMs = PING_TIMEOUT_MS,
): Promise<void> | void {
  let answer: Promise<void> | void;
  try {
    answer = db.ping();
  } catch (err) {
    return answerHealth(res, info, log, pingFailed(err));
  }
  if (answer === undefined) return answerHealth(res, info, log, null);
  return boundedPing(answer, timeoutMs).then((problem) => answerHealth(res, info, log, problem));
}

function answerHealth(res: ServerResponse, info: HealthInfo, log: Logger, problem: string | null): void {
  if (problem !== null) log.warn("health check failed", { reason: problem });
  if (res.headersSent || res.destroyed) return;
  // By hand, from the head made at start: only the uptime changes.
  const detail = info.detail === undefined ? "" : info.detail();
  const body = `${problem === null ? info.okHead : info.unavailableHead}${Math.floor((performance.now() - info.startedAt) / 1000)}${detail}}`;
  const length = info.ascii && detail === "" ? body.length : Buffer.byteLength(body);
  // A cached "ok" would hide an outage from whoever polls.
  writeJsonHead(res, problem === null ? 200 : 503, length, true);
  endWithBody(res, body, length);
}

function pingFailed(err: unknown): string {
  return `database ping failed: ${err instanceof Error ? err.message : String(err)}`;
}

/** Null when a networked database answered its ping within `timeoutMs`, else why not. */
async function boundedPing(answer: Promise<void>, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, `database did not answer within ${timeoutMs} ms`);
  });
  try {
    return await Promise.race([answer.then(() => null, pingFailed), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
