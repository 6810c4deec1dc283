// The hostile-input corpus, sent over raw sockets to a generated server: every case gets a
// clear answer (the JSON envelope, the right status), never a crash or a hang, the handler
// never runs for a request it must not see, and the server answers the next request.

import { join } from "node:path";
import type { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { removeDir, startServer, type TestServer } from "../support/server.js";
import { buildServer, expectAlive, logLines, postJson, raw, request, taskCount } from "./support.js";

const MAX_BODY = 65_536;
const CREATE = "/api/task_tracker:create_task";

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await buildServer();
  server = await startServer(dir, [
    "--db",
    join(dir, "tasks.db"),
    "--workers",
    "1",
    "--max-body-size",
    String(MAX_BODY),
    "--read-timeout",
    "1000",
  ]);
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

/** Writes `total` bytes of `x` in 16 KiB pieces, a little at a time, stopping early when the socket goes away. */
async function stream(socket: Socket, total: number, piece = 16_384): Promise<number> {
  let sent = 0;
  const chunk = Buffer.alloc(piece, "x");
  while (sent < total && !socket.destroyed && socket.writable) {
    socket.write(chunk);
    sent += piece;
    await sleep(2);
  }
  return sent;
}

describe("bodies over --max-body-size", () => {
  test("a Content-Length over the limit gets 413 at once, while the client is still sending", async () => {
    let sent = 0;
    const answer = await raw(server.port, async (socket) => {
      socket.write(request("POST", CREATE, { "Content-Type": "application/json", "Content-Length": 50_000_000 }));
      sent = await stream(socket, 50_000_000);
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    expect(answer.json).toEqual({ ok: false, error: `request body is larger than ${MAX_BODY} bytes` });
    expect(answer.closed).toBe(true);
    // Answered and closed long before the 50 MB arrived: nothing waited for the rest.
    expect(sent).toBeLessThan(50_000_000);
    await expectAlive(server);
  });

  test("a chunked body is cut off with 413 once it passes the limit", async () => {
    const answer = await raw(server.port, async (socket) => {
      socket.write(request("POST", CREATE, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" }));
      const chunk = `4000\r\n${"x".repeat(0x4000)}\r\n`;
      for (let i = 0; i < 2000 && !socket.destroyed && socket.writable; i++) {
        socket.write(chunk);
        await sleep(2);
      }
    });
    expect(answer.status).toBe(413);
    expect(answer.closed).toBe(true);
    await expectAlive(server);
  });

  test("with Expect: 100-continue an oversized body is refused before it is sent", async () => {
    const answer = await raw(
      server.port,
      request("POST", CREATE, {
        "Content-Type": "application/json",
        "Content-Length": MAX_BODY + 1,
        Expect: "100-continue",
      }),
    );
    expect(answer.text).not.toContain("100 Continue");
    expect(answer.status).toBe(413);
    await expectAlive(server);
  });
});

describe("request smuggling framings: 400, the action never runs", () => {
  const body = '{"title":"smuggled"}';
  const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  const cases: [string, string][] = [
    [
      "two Content-Lengths",
      `POST ${CREATE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ],
    [
      "Content-Length with Transfer-Encoding: chunked",
      `POST ${CREATE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`,
    ],
    [
      "Transfer-Encoding: chunked, gzip",
      `POST ${CREATE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked, gzip\r\n\r\n${chunked}`,
    ],
    [
      "Transfer-Encoding: gzip, chunked",
      `POST ${CREATE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${chunked}`,
    ],
    [
      "a space before the colon",
      `POST ${CREATE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding : chunked\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ],
    [
      "bare LF line ends",
      `POST ${CREATE} HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: ${body.length}\n\n${body}`,
    ],
    [
      "a bare LF after one header",
      `POST ${CREATE} HTTP/1.1\r\nHost: x\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ],
    [
      "obsolete line folding",
      `POST ${CREATE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length:\r\n ${body.length}\r\n\r\n${body}`,
    ],
    [
      "Transfer-Encoding in HTTP/1.0",
      `POST ${CREATE} HTTP/1.0\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`,
    ],
    [
      "no Host header in HTTP/1.1",
      `POST ${CREATE} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ],
    [
      "two Host headers",
      `POST ${CREATE} HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ],
  ];

  test.each(cases)("%s", async (_name, bytes) => {
    const before = await taskCount(server);
    const answer = await raw(server.port, bytes);
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe("close");
    expect(answer.headers["x-request-id"]).toMatch(/\S/);
    expect(answer.json).toMatchObject({ ok: false, error: expect.any(String) });
    expect(answer.closed).toBe(true);
    expect(await taskCount(server)).toBe(before);
    await expectAlive(server);
  });
});

describe("headers", () => {
  test("17 KiB of headers gets 431", async () => {
    const answer = await raw(
      server.port,
      request("GET", "/api/task_tracker:list_tasks", { "X-Big": "a".repeat(17 * 1024) }),
    );
    expect(answer.status).toBe(431);
    expect(answer.json).toEqual({ ok: false, error: "request headers are larger than 16384 bytes" });
    await expectAlive(server);
  });

  test("the refusals are logged with their status and reason", () => {
    const rejected = logLines(server).filter((l) => l.msg === "request rejected");
    expect(rejected.map((l) => l.status)).toEqual(expect.arrayContaining([400, 431]));
    expect(rejected.find((l) => l.status === 431)).toMatchObject({
      code: "SVC_ERR_HEADERS_TOO_LARGE",
      parser_code: "HPE_HEADER_OVERFLOW",
      request_id: expect.any(String),
    });
  });
});

describe("JSON bodies", () => {
  test.each([
    ["__proto__", '{"title":"x","__proto__":{"admin":true}}', /__proto__/],
    [
      "constructor.prototype",
      '{"title":"x","description":{"constructor":{"prototype":{"admin":true}}}}',
      /constructor/,
    ],
    ["nested 10,000 deep", `{"title":${"[".repeat(10_000)}${"]".repeat(10_000)}}`, /nested deeper than/],
    ["malformed", '{"title":', /malformed JSON/],
  ])("%s → 400", async (_name, body, message) => {
    const before = await taskCount(server);
    const answer = await raw(server.port, postJson(CREATE, body, { Connection: "close" }));
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(message);
    expect(await taskCount(server)).toBe(before);
    await expectAlive(server);
  });

  test("a body that is not JSON or a form → 415", async () => {
    const answer = await raw(
      server.port,
      request("POST", CREATE, { "Content-Type": "text/plain", "Content-Length": 5, Connection: "close" }, "hello"),
    );
    expect(answer.status).toBe(415);
    expect(answer.json.error).toMatch(/text\/plain/);
    await expectAlive(server);
  });
});

describe("query strings: 400 naming the argument", () => {
  test.each([
    ["/api/task_tracker:list_tasks?limit=abc", /argument "limit" must be an integer/],
    ["/api/task_tracker:list_tasks?limit=1e309", /argument "limit" must be an integer/],
    ["/api/task_tracker:list_tasks?limit=99999999999999999999", /argument "limit" must be an integer/],
    ["/api/task_tracker:get_task?id[]=1", /argument "id" given as a list/],
    ["/api/task_tracker:list_tasks?limit=1&limit=2", /argument "limit" given more than once/],
    ["/api/task_tracker:list_tasks?limit=%zz", /bad %-escape/],
  ])("%s", async (path, message) => {
    const answer = await raw(server.port, request("GET", path, { Connection: "close" }));
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(message);
    await expectAlive(server);
  });
});
