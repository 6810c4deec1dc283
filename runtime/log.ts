// JSON-lines logging on stdout (docs/language.md §7): `{"time","level","msg",…fields}` per line,
// filtered by level. Lines written in one tick of the event loop go out in one write, so
// a busy server does not pay a write per request; errors are written at once.

import { randomBytes } from "node:crypto";
import type { LogLevel } from "./types.js";

export const LOG_LEVELS: readonly LogLevel[] = ["error", "warn", "info", "debug", "trace"];

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3, trace: 4 };

export type LogFields = Record<string, unknown>;
/** Where finished lines go; the default is stdout. */
export type LogSink = (chunk: string) => void;

export interface RequestLogEntry {
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

const stdoutSink: LogSink = (chunk) => {
  process.stdout.write(chunk);
};

export class Logger {
  readonly level: LogLevel;
  private readonly rank: number;
  private readonly sink: LogSink;
  private pending = "";
  private flushScheduled = false;
  private readonly flushSoon = (): void => {
    this.flushScheduled = false;
    this.flush();
  };

  constructor(level: LogLevel, sink: LogSink = stdoutSink) {
    this.level = level;
    this.rank = RANK[level];
    this.sink = sink;
  }

  enabled(level: LogLevel): boolean {
    return RANK[level] <= this.rank;
  }

  error(msg: string, fields?: LogFields): void {
    if (this.rank < RANK.error) return;
    this.write(formatLine("error", msg, fields));
    this.flush();
  }

  warn(msg: string, fields?: LogFields): void {
    if (this.rank >= RANK.warn) this.write(formatLine("warn", msg, fields));
  }

  info(msg: string, fields?: LogFields): void {
    if (this.rank >= RANK.info) this.write(formatLine("info", msg, fields));
  }

  debug(msg: string, fields?: LogFields): void {
    if (this.rank >= RANK.debug) this.write(formatLine("debug", msg, fields));
  }

  trace(msg: string, fields?: LogFields): void {
    if (this.rank >= RANK.trace) this.write(formatLine("trace", msg, fields));
  }

  /**
   * Hot path: one line per request at info. Built by hand because only the path needs
   * escaping (the method is an HTTP token, the request id is checked by requestIdFrom).
   */
  request(entry: RequestLogEntry): void {
    if (this.rank < RANK.info) return;
    this.write(
      `{"time":"${new Date().toISOString()}","level":"info","msg":"request","request_id":"${entry.requestId}",` +
        `"method":"${entry.method}","path":${JSON.stringify(entry.path)},"status":${entry.status},` +
        `"duration_ms":${Math.round(entry.durationMs * 100) / 100}}\n`,
    );
  }

  /** Writes buffered lines now; call before the process exits. */
  flush(): void {
    if (this.pending.length === 0) return;
    const chunk = this.pending;
    this.pending = "";
    this.sink(chunk);
  }

  private write(line: string): void {
    this.pending += line;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flushSoon);
    }
  }
}

export function createLogger(level: LogLevel, sink?: LogSink): Logger {
  return new Logger(level, sink);
}

function formatLine(level: LogLevel, msg: string, fields: LogFields | undefined): string {
  const record: LogFields = { time: new Date().toISOString(), level, msg };
  if (fields !== undefined) {
    for (const key of Object.keys(fields)) {
      if (key !== "time" && key !== "level" && key !== "msg") record[key] = fields[key];
    }
  }
  try {
    return JSON.stringify(record, errorsAsObjects) + "\n";
  } catch (err) {
    // A field that cannot be serialized (a cycle, a BigInt) must not lose the message.
    return JSON.stringify({ time: record.time, level, msg, log_error: String(err) }) + "\n";
  }
}

function errorsAsObjects(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

const MAX_REQUEST_ID = 128;
// Ids made here: a random per-process prefix, then a counter. Unique across workers
// and restarts without the cost of randomness per request.
const processPrefix = randomBytes(6).toString("base64url");
let requestCounter = 0;

/** The caller's `X-Request-Id` when it is ≤ 128 characters of `[A-Za-z0-9._-]`, else a new id. */
export function requestIdFrom(header: string | string[] | undefined): string {
  if (typeof header === "string" && isSaneRequestId(header)) return header;
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${processPrefix}-${requestCounter.toString(36)}`;
}

function isSaneRequestId(id: string): boolean {
  if (id.length === 0 || id.length > MAX_REQUEST_ID) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    const ok =
      (c >= 48 && c <= 57) || // 0-9
      (c >= 65 && c <= 90) || // A-Z
      (c >= 97 && c <= 122) || // a-z
      c === 46 || // .
      c === 95 || // _
      c === 45; // -
    if (!ok) return false;
  }
  return true;
}
