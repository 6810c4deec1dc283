// --cors-origin on a generated server: preflights answered for the allowed origin, that
// origin echoed exactly with Vary: Origin, nothing for other origins, never `*` with
// credentials, and no CORS headers at all without the flag.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { removeDir, startServer, type TestServer } from "../support/server.js";
import { buildServer } from "./support.js";

const APP = "https://app.example.com";
const LIST = "/api/task_tracker:list_tasks";
const CREATE = "/api/task_tracker:create_task";

let dir: string;
const servers: TestServer[] = [];

async function serve(...args: string[]): Promise<TestServer> {
  const server = await startServer(dir, ["--db", ":memory:", "--workers", "1", ...args]);
  servers.push(server);
  return server;
}

function preflight(server: TestServer, origin: string, path = CREATE) {
  return call(`${server.url}${path}`, {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type",
    },
  });
}

beforeAll(async () => {
  dir = await buildServer();
});

afterAll(async () => {
  for (const server of servers) expect(await server.stop()).toBe(0);
  removeDir(dir);
});

describe("one allowed origin", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve("--cors-origin", APP);
  });

  test("its preflight is answered 204 with the methods and headers allowed", async () => {
    const r = await preflight(server, APP);
    expect(r.status).toBe(204);
    expect(r.headers["access-control-allow-origin"]).toBe(APP);
    expect(r.headers["access-control-allow-credentials"]).toBe("true");
    // Exactly the methods the task tracker routes: it has no PUT or PATCH route.
    expect(r.headers["access-control-allow-methods"]).toBe("GET, HEAD, POST, DELETE");
    expect(String(r.headers["access-control-allow-headers"]).toLowerCase()).toContain("content-type");
    expect(String(r.headers["access-control-allow-headers"]).toLowerCase()).toContain("idempotency-key");
    expect(r.headers["access-control-max-age"]).toBe("600");
    expect(r.headers.vary).toBe("Origin");
  });

  test("its requests get the origin echoed exactly, Vary: Origin, and the request id exposed", async () => {
    for (const r of [
      await call(`${server.url}${LIST}`, { headers: { Origin: APP } }),
      await call(`${server.url}${CREATE}`, { json: { title: "from the app" }, headers: { Origin: APP } }),
      await call(`${server.url}${LIST}?limit=abc`, { headers: { Origin: APP } }),
    ]) {
      expect(r.headers["access-control-allow-origin"]).toBe(APP);
      expect(r.headers.vary).toBe("Origin");
      expect(r.headers["access-control-expose-headers"]).toBe("X-Request-Id, Idempotent-Replayed");
    }
  });

  test("another origin gets no CORS header, and its preflight is not answered as one", async () => {
    for (const other of [
      "https://evil.example.com",
      "https://app.example.com.evil.net",
      "http://app.example.com",
      "null",
    ]) {
      const r = await call(`${server.url}${LIST}`, { headers: { Origin: other } });
      expect(r.status).toBe(200);
      expect(r.headers["access-control-allow-origin"]).toBeUndefined();
      expect(r.headers["access-control-allow-credentials"]).toBeUndefined();
      expect(r.headers.vary).toBe("Origin");
      // Answered as a plain OPTIONS (204 with Allow), without any CORS header.
      const p = await preflight(server, other);
      expect([p.status, p.headers.allow]).toEqual([204, "POST, OPTIONS"]);
      expect(p.headers["access-control-allow-origin"]).toBeUndefined();
      expect(p.headers["access-control-allow-methods"]).toBeUndefined();
    }
  });
});

test("`*` allows any origin without credentials", async () => {
  const server = await serve("--cors-origin", "*");
  const r = await call(`${server.url}${LIST}`, { headers: { Origin: "https://anyone.example" } });
  expect(r.headers["access-control-allow-origin"]).toBe("*");
  expect(r.headers["access-control-allow-credentials"]).toBeUndefined();
  const p = await preflight(server, "https://anyone.example");
  expect(p.status).toBe(204);
  expect(p.headers["access-control-allow-origin"]).toBe("*");
  expect(p.headers["access-control-allow-credentials"]).toBeUndefined();
});

test("without --cors-origin no response carries a CORS header", async () => {
  const server = await serve();
  const r = await call(`${server.url}${LIST}`, { headers: { Origin: APP } });
  expect(Object.keys(r.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
  expect(r.headers.vary).toBeUndefined();
  const p = await preflight(server, APP);
  expect([p.status, p.headers.allow]).toEqual([204, "POST, OPTIONS"]);
  expect(Object.keys(p.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
});
