// Shared pieces for the runtime tests: an in-memory Database, a log sink that keeps
// lines, a hand-written ServerSpec, and a raw-socket client for what undici cannot send.

import { once } from "node:events";
import type { Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { Logger } from "../../../runtime/core/log.js";
import type {
  Database,
  EndpointSpec,
  Executor,
  HttpMethod,
  Row,
  RouteSpec,
  ServerSpec,
  StatementSpec,
  TableSpec,
} from "../../../runtime/contract/index.js";

/** A Database that keeps nothing; enough for the HTTP core, which never looks inside. */
export class MemoryDatabase implements Database {
  readonly dialect = "sqlite" as const;
  migrated: readonly TableSpec[] | null = null;
  prepared: readonly StatementSpec[] | null = null;
  closed = false;
  /** What ping does: answer, fail, or never answer. */
  /** `now`: answers at once, as SQLite does; `refused`: fails at once. */
  pingMode: "ok" | "fail" | "hang" | "now" | "refused" = "ok";

  async all(_stmt: StatementSpec, _args: readonly unknown[]): Promise<Row[]> {
    return [];
  }
  async one(_stmt: StatementSpec, _args: readonly unknown[]): Promise<Row | null> {
    return null;
  }
  async run(_stmt: StatementSpec, _args: readonly unknown[]): Promise<number> {
    return 0;
  }
  async migrate(tables: readonly TableSpec[]): Promise<void> {
    this.migrated = tables;
  }
  prepare(stmts: readonly StatementSpec[]): void {
    this.prepared = stmts;
  }
  async transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    return fn(this);
  }
  ping(): Promise<void> | void {
    if (this.pingMode === "now") return;
    if (this.pingMode === "refused") throw new Error("database is closed");
    if (this.pingMode === "ok") return Promise.resolve();
    if (this.pingMode === "fail") return Promise.reject(new Error("connection refused"));
    return new Promise(() => undefined);
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A logger whose lines are kept as parsed objects. */
export function memoryLogger(level: "error" | "warn" | "info" | "debug" | "trace" = "trace"): {
  log: Logger;
  lines: () => Record<string, unknown>[];
} {
  let text = "";
  const log = new Logger(level, (chunk) => {
    text += chunk;
  });
  return {
    log,
    lines: () => {
      log.flush();
      return text
        .split("\n")
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
  };
}

export function endpoint(name: string, kind: "action" | "query", run: EndpointSpec["run"]): EndpointSpec {
  return { name, kind, run };
}

/** A route-table entry leading to `target`; a path with `:parameters` is split as the compiler splits it. */
export function route(method: HttpMethod, path: string, target: EndpointSpec): RouteSpec {
  const segments = path === "/" ? [] : path.slice(1).split("/");
  return segments.some((s) => s.startsWith(":"))
    ? { method, path, segments, target: { kind: "endpoint", endpoint: target } }
    : { method, path, target: { kind: "endpoint", endpoint: target } };
}

export function spec(parts: Partial<ServerSpec>): ServerSpec {
  return {
    name: "test_service",
    version: "1.2.3",
    tables: [],
    statements: [],
    routes: [],
    defaults: {},
    ...parts,
  };
}

export async function listen(server: Server): Promise<string> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `head` (request line and headers, without the blank line), then each part,
 * stopping as soon as the server answers. Resolves with the first response and how
 * many parts were written before it came.
 */
export async function sendRaw(
  url: string,
  head: string,
  parts: readonly string[] = [],
  gapMs = 2,
): Promise<{ response: RawResponse; partsSent: number }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), "127.0.0.1");
  await once(socket, "connect");
  let received = "";
  socket.on("data", (data: Buffer) => {
    received += data.toString("latin1");
  });
  socket.on("error", () => undefined); // the server may reset after answering
  socket.write(`${head}\r\n\r\n`);
  let partsSent = 0;
  for (const part of parts) {
    if (received.length > 0 || socket.destroyed) break;
    socket.write(part);
    partsSent++;
    await new Promise((r) => setTimeout(r, gapMs));
  }
  const deadline = Date.now() + 5000;
  while (!hasFullResponse(received) && !socket.destroyed && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 5));
  }
  socket.destroy();
  return { response: parseRaw(received), partsSent };
}

/** Like sendRaw, with each chunk framed for `Transfer-Encoding: chunked` and the final empty chunk after them. */
export async function sendChunked(
  url: string,
  head: string,
  chunks: readonly string[],
  gapMs = 2,
): Promise<{ response: RawResponse; chunksSent: number }> {
  const parts = chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`);
  parts.push("0\r\n\r\n");
  const { response, partsSent } = await sendRaw(url, `${head}\r\nTransfer-Encoding: chunked`, parts, gapMs);
  return { response, chunksSent: Math.min(partsSent, chunks.length) };
}

function hasFullResponse(raw: string): boolean {
  const end = raw.indexOf("\r\n\r\n");
  if (end === -1) return false;
  const length = /content-length:\s*(\d+)/i.exec(raw.slice(0, end));
  return length !== null && raw.length - end - 4 >= Number(length[1]);
}

function parseRaw(raw: string): RawResponse {
  const end = raw.indexOf("\r\n\r\n");
  if (end === -1) throw new Error(`no complete response: ${JSON.stringify(raw)}`);
  const [statusLine, ...headerLines] = raw.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: Buffer.from(raw.slice(end + 4), "latin1").toString("utf8"),
  };
}
