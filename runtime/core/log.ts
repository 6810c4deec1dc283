// JSON-lines logging on stdout (docs/language.md §7): `{"time","level","msg",…fields}` per line,
// filtered by level. Lines written in one turn of the event loop go out in one write, so
// a busy server does not pay a write per request; errors are written at once.
//
// Several processes (the workers and the primary of cluster/) share one stdout. A write of
// at most PIPE_BUF bytes to a pipe is atomic (POSIX write(2)), and Node writes stdout
// synchronously on Linux when it is a pipe or a file; so lines are gathered into pieces of
// at most PIPE_BUF bytes of UTF-8, and a piece that would overflow goes out first: every
// write holds whole lines and none is cut by another process's. A single line longer than
// PIPE_BUF (a long stack trace) goes out alone and may still interleave.

import { randomBytes } from "node:crypto";
import { writeSync } from "node:fs";
import { CROCKFORD_CODES } from "../lang/ids.js";
import { LINE_END, middleOf, plainJsonString, requestLine, type RequestLogEntry, TRACE_ID, TRACED_LINE_END } from "./request-line.js";
import { now } from "./time.js";
import type { LogLevel } from "../contract/index.js";

export const LOG_LEVELS: readonly LogLevel[] = ["error", "warn", "info", "debug", "trace"];

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3, trace: 4 };

export type LogFields = Record<string, unknown>;
export type { RequestLogEntry };
/** Where finished lines go, whole lines at a time (`bytes` of UTF-8); the default is stdout. */
export type LogSink = (chunk: string, bytes: number) => void;

/** Linux's PIPE_BUF; POSIX guarantees at least 512. */
const PIPE_BUF = 4096;

/**
 * Writes to stdout with write(2) itself while nothing waits in Node's stdout stream: the
 * stream's own path costs a busy server more per write than making a request's line does
 * (some 37,000 instructions against 15,000 for a 1.5 KB piece, measured with callgrind).
 * Once set up, Node's stdout on a pipe or socket is blocking (that is how its writes are
 * synchronous on Linux), so write(2) takes the whole piece or waits, as the stream's write
 * did. Whatever write(2) did not take (an error such as EPIPE, or EAGAIN should something
 * have made stdout non-blocking) goes to the stream, which reports or queues it as before,
 * and later lines follow it through the stream until it has drained, keeping their order.
 */
const stdoutSink: LogSink = (chunk, bytes) => {
  if (stdoutGone) return;
  const stdout = process.stdout;
  if (stdout.writableLength > 0) {
    stdout.write(chunk);
    return;
  }
  let written = 0;
  try {
    // ASCII (its size is its length, as nearly every piece is) goes out as latin1, the same
    // bytes copied rather than encoded.
    written = writeSync(STDOUT_FD, chunk, null, bytes === chunk.length ? "latin1" : "utf8");
  } catch {
    // EAGAIN, EPIPE, …: left to the stream.
  }
  if (written < bytes) stdout.write(written === 0 ? chunk : Buffer.from(chunk).subarray(written));
};

const STDOUT_FD = 1;

/**
 * Set once stdout's reader has gone (EPIPE, or the stream closed): from then on lines are
 * dropped. A server that lost its log keeps serving; crashing it would lose requests too.
 */
let stdoutGone = false;
let watchingStdout = false;

function watchStdout(): void {
  if (watchingStdout) return;
  watchingStdout = true;
  process.stdout.on("error", () => {
    stdoutGone = true;
  });
}

export class Logger {
  readonly level: LogLevel;
  private readonly rank: number;
  private readonly sink: LogSink;
  /** Lines not handed to the sink yet, and their size in UTF-8. */
  private pending = "";
  private pendingBytes = 0;
  private flushScheduled = false;
  /**
   * Set by runtime/traces when tracing is on: the trace id of the request being answered under
   * a request id, which every line naming it carries as `trace_id`. Null (no work at all) otherwise.
   */
  traceIdOf: ((requestId: string) => string | undefined) | null = null;
  private readonly flushSoon = (): void => {
    this.flushScheduled = false;
    this.flush();
  };

  constructor(level: LogLevel, sink?: LogSink) {
    this.level = level;
    this.rank = RANK[level];
    this.sink = sink ?? stdoutSink;
    // Sets up Node's stdout now, as stdoutSink expects it (blocking on a pipe).
    if (sink === undefined) watchStdout();
  }

  enabled(level: LogLevel): boolean {
    return RANK[level] <= this.rank;
  }

  error(msg: string, fields?: LogFields): void {
    if (this.rank < RANK.error) return;
    this.write(formatLine("error", msg, this.traced(fields)));
    this.flush();
  }

  warn(msg: string, fields?: LogFields): void {
    if (this.rank >= RANK.warn) this.write(formatLine("warn", msg, this.traced(fields)));
  }

  info(msg: string, fields?: LogFields): void {
    if (this.rank >= RANK.info) this.write(formatLine("info", msg, this.traced(fields)));
  }

  debug(msg: string, fields?: LogFields): void {
    if (this.rank >= RANK.debug) this.write(formatLine("debug", msg, this.traced(fields)));
  }

  trace(msg: string, fields?: LogFields): void {
    if (this.rank >= RANK.trace) this.write(formatLine("trace", msg, this.traced(fields)));
  }

  /**
   * Hot path: one line per request at info. Built by hand because only the path may need
   * escaping: the method is an HTTP token and the request id was checked by requestIdFrom,
   * so unless the path needs escaping the line is ASCII and its length is its size.
   */
  request(entry: RequestLogEntry): void {
    if (this.rank < RANK.info) return;
    // Traced, the line ends with the request's trace id (hex: nothing to escape), as `traced` adds it to other lines.
    const traceId = this.traceIdOf === null ? undefined : this.traceIdOf(entry.requestId);
    const end = traceId === undefined ? LINE_END : [TRACE_ID, traceId, TRACED_LINE_END].join("");
    if (entry.logged !== null) {
      const line = requestLine(entry, entry.logged.middleFor(entry.method, entry.status), end);
      this.write(line, line.length);
      return;
    }
    const plain = plainJsonString(entry.path);
    const line = requestLine(entry, middleOf(entry.method, plain ?? JSON.stringify(entry.path), entry.status), end);
    this.write(line, plain === null ? Buffer.byteLength(line) : line.length);
  }

  /** `fields` with the trace id of the request they name, when tracing is on and it is being answered. */
  private traced(fields: LogFields | undefined): LogFields | undefined {
    const traceId = typeof fields?.request_id === "string" ? this.traceIdOf?.(fields.request_id) : undefined;
    return traceId === undefined ? fields : { ...fields, trace_id: traceId };
  }

  /** Writes buffered lines now; call before the process exits. */
  flush(): void {
    if (this.pendingBytes === 0) return;
    const chunk = this.pending;
    const bytes = this.pendingBytes;
    this.pending = "";
    this.pendingBytes = 0;
    this.sink(chunk, bytes);
  }

  private write(line: string, bytes: number = Buffer.byteLength(line)): void {
    // A piece goes out before it would pass PIPE_BUF; a longer line goes out alone after it.
    if (this.pendingBytes + bytes > PIPE_BUF) {
      this.flush();
      if (bytes > PIPE_BUF) {
        this.sink(line, bytes);
        return;
      }
    }
    this.pending += line;
    this.pendingBytes += bytes;
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
  const record: LogFields = { time: now(), level, msg };
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

// Ids made here: a random per-process prefix, a hyphen, then a counter: unique across
// workers and restarts without the cost of randomness per request. The counter is eight
// Crockford base32 digits (2^40 ids before it wraps) and the id is made by one
// String.fromCharCode: a flat string. A concatenated one (`${prefix}-${n}`) is a rope once
// it passes 12 characters, and Node's header check runs its regex on a rope through V8's
// slow path, flattening it first: some 900 instructions a request more.
const PREFIX = Uint8Array.from(randomBytes(6).toString("base64url"), (ch) => ch.charCodeAt(0));
const HYPHEN = 45;
const counter = new Uint8Array(8);

/** The next id of this process, e.g. `q3Xk9_Ab-0000001F`. */
function freshRequestId(): string {
  let i = counter.length - 1;
  while (i > 0 && counter[i] === 31) counter[i--] = 0;
  counter[i] = (counter[i] + 1) & 31;
  const p = PREFIX;
  const c = counter;
  const d = CROCKFORD_CODES;
  return String.fromCharCode(
    p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], HYPHEN,
    d[c[0]], d[c[1]], d[c[2]], d[c[3]], d[c[4]], d[c[5]], d[c[6]], d[c[7]],
  );
}

/** The caller's `X-Request-Id` when it is ≤ 128 characters of `[A-Za-z0-9._-]`, else a new id. */
export function requestIdFrom(header: string | string[] | undefined): string {
  if (typeof header === "string" && isSaneRequestId(header)) return header;
  return freshRequestId();
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
