import type { LoadRequest } from "./endpoints.js";

/**
 * Messages between the bench (parent) and one load driver (child) over the IPC channel:
 *   parent → run{…}   driver prepares, then → armed
 *   parent reads the server's CPU time → go   driver fires → result | failed, and exits
 * The handshake lets the parent read CPU time right before and right after the load.
 */
export interface RunMessage {
  type: "run";
  url: string;
  connections: number;
  /** How long to fire; ignored when `amount` is set. */
  durationSeconds: number;
  /** Fire exactly this many requests in all (autocannon's `amount`), however long it takes. */
  amount?: number;
  requests: LoadRequest[];
}

export interface GoMessage {
  type: "go";
}

export type ParentMessage = RunMessage | GoMessage;

export interface LoadResult {
  /** Completed responses, any status. */
  requests: number;
  /** Wall time of the run as autocannon measured it. */
  durationSeconds: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytes: number;
  statusCodes: Record<string, number>;
}

export type DriverMessage =
  { type: "armed" } | { type: "result"; result: LoadResult } | { type: "failed"; message: string };
