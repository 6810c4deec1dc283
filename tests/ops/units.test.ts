// The operations pieces on their own: option resolution for the new flags, log batches cut
// at line ends, framing checks, client-error answers, timeout intervals and write deadlines.

import { EventEmitter, once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type AddressInfo, type Socket, connect, createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "../support/jest.js";
import { describeClientError } from "../../runtime/core/client-errors.js";
import { Cors } from "../../runtime/core/cors.js";
import { framingProblem } from "../../runtime/core/framing.js";
import { Logger } from "../../runtime/core/log.js";
import { BUILTIN_DEFAULTS, parseServerArgs } from "../../runtime/start/options.js";
import { checkingInterval, httpServerOptions, KEEP_ALIVE_TIMEOUT_MS, WriteDeadlines } from "../../runtime/core/timeouts.js";
import type { ServerOptions } from "../../runtime/contract/index.js";

function options(argv: string[], defaults: Partial<ServerOptions> = {}): ServerOptions {
  const parsed = parseServerArgs(argv, {}, defaults);
  if ("help" in parsed) throw new Error("unexpected help");
  return parsed.options;
}

function failure(argv: string[], defaults: Partial<ServerOptions> = {}): string {
  try {
    options(argv, defaults);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("expected a failure");
}

describe("options for the operations flags", () => {
  test("built-in defaults, then svc.toml, then the flag", () => {
    expect(options([])).toMatchObject({ corsOrigin: null, readTimeoutMs: 30_000, writeTimeoutMs: 30_000 });
    expect(BUILTIN_DEFAULTS.workers).toBeGreaterThanOrEqual(1);
    const toml: Partial<ServerOptions> = { corsOrigin: "*", readTimeoutMs: 500, writeTimeoutMs: 600, workers: 3 };
    expect(options([], toml)).toMatchObject(toml);
    expect(
      options(
        ["--cors-origin", "https://a.example:8443", "--read-timeout=700", "--write-timeout", "800", "--workers", "1"],
        toml,
      ),
    ).toMatchObject({ corsOrigin: "https://a.example:8443", readTimeoutMs: 700, writeTimeoutMs: 800, workers: 1 });
  });

  test("a bad svc.toml value names its key", () => {
    expect(failure([], { workers: 0 })).toBe(
      "svc.toml [server] workers: 0 is not a number of workers (a whole number from 1 to 1024)",
    );
    expect(failure([], { readTimeoutMs: 1.5 })).toContain("svc.toml [server] read_timeout_ms");
    expect(failure([], { writeTimeoutMs: -1 })).toContain("svc.toml [server] write_timeout_ms");
    expect(failure([], { corsOrigin: "example.com" })).toContain("svc.toml [server] cors_origin");
  });

  test("origins must be written as browsers send them", () => {
    expect(failure(["--cors-origin", "https://app.example.com/"])).toBe(
      '--cors-origin: "https://app.example.com/" is not an origin (scheme://host[:port]); an origin has no path: https://app.example.com',
    );
    expect(failure(["--cors-origin", "HTTPS://APP.EXAMPLE.COM"])).toContain("--cors-origin");
    expect(options(["--cors-origin", "http://localhost:3000"]).corsOrigin).toBe("http://localhost:3000");
  });
});

describe("log batches for a shared stdout", () => {
  /** Every chunk the logger hands to its sink, after `lines` are logged in one tick and flushed. */
  function chunksOf(texts: string[]): string[] {
    const chunks: string[] = [];
    const log = new Logger("info", (chunk) => chunks.push(chunk));
    for (const text of texts) log.info(text);
    log.flush();
    return chunks;
  }

  test("cut at line ends into pieces of at most 4096 bytes, nothing lost or reordered", () => {
    const texts = Array.from({ length: 60 }, (_, i) => `${i}:${"é".repeat(i * 7)}`);
    const chunks = chunksOf(texts);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(Buffer.byteLength(chunk)).toBeLessThanOrEqual(4096);
      expect(chunk.endsWith("\n")).toBe(true);
    }
    const lines = chunks.join("").split("\n").filter(Boolean);
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(texts);
  });

  test("a line longer than 4096 bytes goes out alone and whole", () => {
    const long = "x".repeat(5000);
    const chunks = chunksOf(["a", long, "b"]);
    expect(chunks).toHaveLength(3);
    expect(chunks.map((chunk) => (JSON.parse(chunk) as { msg: string }).msg)).toEqual(["a", long, "b"]);
  });
});

function fakeRequest(rawHeaders: string[], minor = 1): IncomingMessage {
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    headers[name] = headers[name] === undefined ? rawHeaders[i + 1] : `${headers[name]}, ${rawHeaders[i + 1]}`;
  }
  return { headers, rawHeaders, httpVersionMajor: 1, httpVersionMinor: minor } as unknown as IncomingMessage;
}

describe("framing checks Node's parser leaves to us", () => {
  test("a plain request passes", () => {
    expect(framingProblem(fakeRequest(["Host", "a", "Content-Length", "3"]))).toBeNull();
    expect(framingProblem(fakeRequest(["Host", "a", "Transfer-Encoding", "Chunked"]))).toBeNull();
    expect(framingProblem(fakeRequest(["Content-Length", "0"], 0))).toBeNull();
  });

  test.each([
    [["Host", "a", "Transfer-Encoding", "gzip, chunked"], 1, 'Transfer-Encoding "gzip, chunked" is not supported'],
    [["Host", "a", "Transfer-Encoding", "chunked"], 0, "Transfer-Encoding is not allowed in an HTTP/1.0 request"],
    [["Host", "a", "host", "b"], 1, "more than one Host header"],
    [["Content-Length", "0"], 1, "an HTTP/1.1 request needs a Host header"],
  ])("%j over HTTP/1.%i", (raw, minor, message) => {
    const problem = framingProblem(fakeRequest(raw, minor));
    expect(problem?.status).toBe(400);
    expect(problem?.message).toContain(message);
    expect(problem?.headers).toEqual({ Connection: "close" });
  });
});

describe("client errors", () => {
  test.each([
    ["HPE_HEADER_OVERFLOW", 431],
    ["ERR_HTTP_REQUEST_TIMEOUT", 408],
    ["HPE_CHUNK_EXTENSIONS_OVERFLOW", 413],
    ["HPE_UNEXPECTED_CONTENT_LENGTH", 400],
  ])("%s → %i", (code, status) => {
    const err = Object.assign(new Error("x"), { code, reason: "Duplicate Content-Length" });
    expect(describeClientError(err, 1000)?.status).toBe(status);
  });

  test("a connection the client reset has no one to answer", () => {
    expect(describeClientError(Object.assign(new Error("x"), { code: "ECONNRESET" }), 1000)).toBeNull();
  });

  test("the parser's reason reaches the client", () => {
    const err = Object.assign(new Error("Parse Error"), {
      code: "HPE_INVALID_HEADER_TOKEN",
      reason: "Invalid header field char",
    });
    expect(describeClientError(err, 1000)?.message).toBe("malformed HTTP request: Invalid header field char");
  });
});

describe("timeouts", () => {
  test("checks run often enough for a timeout to fire within a quarter of itself, at most every second", () => {
    expect(checkingInterval(1000)).toBe(250);
    expect(checkingInterval(30_000)).toBe(1000);
    expect(checkingInterval(1)).toBe(10);
  });

  test("Node's read timeouts are the read timeout; keep-alive outlasts a load balancer's 60 s", () => {
    const o = httpServerOptions(1500);
    expect(o).toMatchObject({ headersTimeout: 1500, requestTimeout: 1500, connectionsCheckingInterval: 375 });
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(o.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
  });
});

function fakeResponse(socket: object, complete = true): ServerResponse {
  const res = new EventEmitter() as unknown as {
    req: { complete: boolean; socket: object };
    socket: object;
    writableFinished: boolean;
    destroyed: boolean;
  };
  res.req = { complete, socket };
  res.socket = socket;
  res.writableFinished = false;
  res.destroyed = false;
  return res as unknown as ServerResponse;
}

describe("write deadlines", () => {
  test("expire in order; finished responses are forgotten; a request still arriving is left to the read timeout", async () => {
    const expired: ServerResponse[] = [];
    const deadlines = new WriteDeadlines(40, (res) => expired.push(res));
    const socket = {};
    const done = fakeResponse(socket);
    const slow = fakeResponse(socket);
    const uploading = fakeResponse({}, false);
    const now = performance.now();
    deadlines.add(done, now);
    deadlines.add(slow, now);
    deadlines.add(uploading, now);
    expect(deadlines.hasLaterOnConnection(done)).toBe(true);
    expect(deadlines.hasLaterOnConnection(slow)).toBe(false);
    // The handler is done with all three; none is sent yet, so each waits for its 'close'.
    for (const res of [done, slow, uploading]) deadlines.settle(res);
    expect(deadlines.size).toBe(3);
    done.emit("close");
    expect(deadlines.size).toBe(2);
    await sleep(150);
    expect(expired).toEqual([slow]);
    expect(deadlines.size).toBe(1);
    deadlines.stop();
  });

  test("an answer that arrived by the deadline, unread, goes out; one still missing gets the 503", async () => {
    const expired: ServerResponse[] = [];
    const deadlines = new WriteDeadlines(40, (res) => expired.push(res));
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = connect((server.address() as AddressInfo).port, "127.0.0.1");
    const [peer] = (await once(server, "connection")) as [Socket];
    if (client.connecting) await once(client, "connect");
    const answered = fakeResponse({});
    const unanswered = fakeResponse({});
    deadlines.add(answered, performance.now());
    deadlines.add(unanswered, performance.now());
    // The database's answer for `answered`, read when it arrives (as a handler's would be).
    client.once("data", () => {
      Object.assign(answered, { headersSent: true, writableFinished: true });
    });
    peer.write("answer");
    // A process starved past the deadline, the answer arriving meanwhile: once it runs again,
    // the deadline's timer is due with the answer unread (timers run before the loop's I/O).
    const busyUntil = performance.now() + 200;
    while (performance.now() < busyUntil);
    await sleep(100);
    expect(expired).toEqual([unanswered]);
    deadlines.stop();
    client.destroy();
    peer.destroy();
    server.close();
  });

  test("a response sent whole (or destroyed) by the time the handler settles it is forgotten at once", async () => {
    const expired: ServerResponse[] = [];
    const deadlines = new WriteDeadlines(40, (res) => expired.push(res));
    const sent = fakeResponse({});
    const cut = fakeResponse({});
    const now = performance.now();
    deadlines.add(sent, now);
    deadlines.add(cut, now);
    (sent as unknown as { writableFinished: boolean }).writableFinished = true;
    (cut as unknown as { destroyed: boolean }).destroyed = true;
    deadlines.settle(sent);
    deadlines.settle(cut);
    expect(deadlines.size).toBe(0);
    expect(sent.listenerCount("close")).toBe(0);
    // Settling twice, or a response never added, changes nothing.
    deadlines.settle(sent);
    const stranger = fakeResponse({});
    const pending = fakeResponse({});
    deadlines.add(pending, now);
    deadlines.settle(stranger);
    expect(deadlines.size).toBe(1);
    await sleep(150);
    // Only the one still pending expired: the forgotten ones are out of the queue.
    expect(expired).toEqual([pending]);
    deadlines.stop();
  });
});

describe("CORS", () => {
  function exchange(cors: Cors, headers: Record<string, string>, method = "GET") {
    const set: Record<string, string> = {};
    let status = 0;
    const res = {
      setHeader: (name: string, value: string) => (set[name.toLowerCase()] = value),
      writeHead: (code: number, more: Record<string, string>) => {
        status = code;
        for (const [k, v] of Object.entries(more)) set[k.toLowerCase()] = v;
      },
      end: () => undefined,
    } as unknown as ServerResponse;
    const answered = cors.handle({ method, headers } as unknown as IncomingMessage, res);
    return { answered, status, set };
  }

  test("a request without Origin gets only Vary", () => {
    expect(exchange(new Cors("https://a.example", ["GET", "HEAD", "POST"]), {}).set).toEqual({ vary: "Origin" });
  });

  test("a preflight from another origin is left to the router", () => {
    const r = exchange(
      new Cors("https://a.example", ["GET", "HEAD", "POST"]),
      { origin: "https://b.example", "access-control-request-method": "POST" },
      "OPTIONS",
    );
    expect(r.answered).toBe(false);
    expect(r.set["access-control-allow-origin"]).toBeUndefined();
  });
});
