// --read-timeout and --write-timeout on a generated server, over raw sockets: slow and
// silent clients are cut off at the read timeout while others are served; a handler past the
// write timeout gets a 503; a client that never reads its response does not hold the server.
// No upper time bound is asserted (a loaded machine can be slow to answer): the 408 and 503
// name the timeout that fired, and the socket windows (15 s) are far below the 30 s
// defaults. The one timed check is a lower bound, which load cannot break: no early cut-off.

import { join } from "node:path";
import type { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { removeDir, startServer, type TestServer } from "../support/server.js";
import { buildServer, expectAlive, postJson, raw, request, taskCount, waitForLog } from "./support.js";

const TIMEOUT_MS = 1000;
const LIST = "/api/task_tracker:list_tasks";

let dir: string;
let dbFile: string;
let server: TestServer;

beforeAll(async () => {
  dir = await buildServer();
  dbFile = join(dir, "tasks.db");
  server = await startServer(dir, [
    "--db",
    dbFile,
    "--workers",
    "1",
    "--read-timeout",
    String(TIMEOUT_MS),
    "--write-timeout",
    String(TIMEOUT_MS),
  ]);
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

/** Writes `text` one byte every `everyMs` until the socket closes. */
async function trickle(socket: Socket, text: string, everyMs = 100): Promise<void> {
  for (let i = 0; !socket.destroyed && socket.writable; i = (i + 1) % text.length) {
    socket.write(text[i]);
    await sleep(everyMs);
  }
}

function expectTimedOut(answer: { status: number; json: any; closed: boolean; elapsedMs: number }): void {
  expect(answer.status).toBe(408);
  expect(answer.json).toEqual({
    ok: false,
    error: `the request did not arrive within the read timeout (${TIMEOUT_MS} ms)`,
  });
  expect(answer.closed).toBe(true);
  // Not cut off before the timeout (a client sees at least the server's wait).
  expect(answer.elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
}

describe("--read-timeout", () => {
  test("a connection that sends nothing is closed with 408", async () => {
    expectTimedOut(await raw(server.port, () => undefined, 15_000));
    await expectAlive(server);
  });

  test("slowloris headers are cut off at the read timeout while other clients are served", async () => {
    const slow = Array.from({ length: 5 }, () =>
      raw(
        server.port,
        (socket) => trickle(socket, `GET ${LIST} HTTP/1.1\r\nHost: x\r\nX-Slow: ${"a".repeat(200)}`),
        15_000,
      ),
    );
    const served: number[] = [];
    for (let i = 0; i < 8; i++) {
      served.push((await call(`${server.url}${LIST}?limit=1`)).status);
      await sleep(150);
    }
    expect(served).toEqual(Array(8).fill(200));
    for (const answer of await Promise.all(slow)) expectTimedOut(answer);
  });

  test("a body shorter than its Content-Length gets 408 and the action never runs", async () => {
    const before = await taskCount(server);
    const answer = await raw(
      server.port,
      (socket) => {
        socket.write(
          request("POST", "/api/task_tracker:create_task", {
            "Content-Type": "application/json",
            "Content-Length": 100,
          }),
        );
        socket.write('{"title":"never"');
      },
      15_000,
    );
    expectTimedOut(answer);
    expect(answer.headers["x-request-id"]).toMatch(/\S/);
    expect(await taskCount(server)).toBe(before);
    await expectAlive(server);
  });

  test("a body still trickling in is cut off too: the timeout counts from the request's start", async () => {
    const answer = await raw(
      server.port,
      async (socket) => {
        socket.write(
          request("POST", "/api/task_tracker:create_task", {
            "Content-Type": "application/json",
            "Content-Length": 1000,
          }),
        );
        await trickle(socket, " ", 50);
      },
      15_000,
    );
    expectTimedOut(answer);
  });

  test("an idle keep-alive connection outlives the read timeout", async () => {
    const answer = await raw(
      server.port,
      async (socket) => {
        socket.write(request("GET", `${LIST}?limit=1`));
        await sleep(TIMEOUT_MS * 1.6);
        socket.write(request("GET", `${LIST}?limit=1`));
      },
      TIMEOUT_MS * 4,
    );
    expect(answer.closed).toBe(false);
    expect(answer.text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
  });
});

describe("--write-timeout", () => {
  test("a handler still working past it gets 503 and the connection closes", async () => {
    // Another connection holds SQLite's write lock, so create_task waits (asynchronously) for it.
    const locker = new Database(dbFile);
    locker.exec("BEGIN IMMEDIATE");
    try {
      const started = Date.now();
      const answer = await raw(server.port, postJson("/api/task_tracker:create_task", '{"title":"late"}'), 15_000);
      expect(answer.status).toBe(503);
      expect(answer.json).toEqual({
        ok: false,
        error: `the server did not answer within the write timeout (${TIMEOUT_MS} ms)`,
      });
      expect(answer.headers.connection).toBe("close");
      expect(answer.closed).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    } finally {
      locker.exec("ROLLBACK");
      locker.close();
    }
    await waitForLog(server, (l) => l.msg === "write timeout");
    await expectAlive(server);
  });

  test("a client that never reads its response is cut off, and others are served meanwhile", async () => {
    // ~1.2 MB per list: thirty of them overflow every socket buffer between the two ends.
    const description = "d".repeat(60_000);
    for (let i = 0; i < 20; i++) {
      const r = await call(`${server.url}/api/task_tracker:create_task`, { json: { title: `big ${i}`, description } });
      expect(r.status).toBe(200);
    }
    const mark = server.output.length;
    const pipelined = Array.from({ length: 30 }, () => request("GET", `${LIST}?limit=1000`)).join("");
    let received = 0;
    const answer = await raw(
      server.port,
      async (socket) => {
        socket.pause();
        socket.write(pipelined);
        for (let i = 0; i < 5; i++) {
          await expectAlive(server);
          await sleep(100);
        }
        await waitForLog(server, (l) => l.msg === "write timeout", 10_000, mark);
        socket.on("data", (d: Buffer) => (received += d.length));
        socket.resume();
      },
      15_000,
    );
    expect(answer.closed).toBe(true);
    expect(received).toBeLessThan(30 * 1_200_000);
    await expectAlive(server);
  });
});
