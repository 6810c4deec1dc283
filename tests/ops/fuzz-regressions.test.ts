// Bugs the fuzzer (fuzz.test.ts) found, each as the request that showed it.

import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { removeDir, startServer, type TestServer } from "../support/server.js";
import { buildServer, expectAlive, raw, request } from "./support.js";

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await buildServer();
  server = await startServer(dir, ["--db", join(dir, "regressions.db"), "--read-timeout", "1000"]);
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

test("CONNECT (seed 20261124, case 159) is answered with the envelope, not closed unanswered", async () => {
  for (const target of ["/", "*", "127.0.0.1:443", "/api/task_tracker:create_task"]) {
    const answer = await raw(server.port, request("CONNECT", target, { Connection: "close" }), 5000);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ ok: false, error: "CONNECT is not served: this server is not a proxy" });
    expect(answer.headers.connection).toBe("close");
    expect(answer.closed).toBe(true);
  }
  // With a body and bytes following, too: they are read and dropped.
  const withBody = await raw(server.port, request("CONNECT", "/", { "Content-Length": 5 }, "hello GET / HTTP/1.1\r\n\r\n"), 5000);
  expect(withBody.status).toBe(400);
  expect(withBody.text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  await expectAlive(server);
});
