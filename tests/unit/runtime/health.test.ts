import { describe, test, expect, beforeAll, afterAll } from "../../support/jest.js";
import { createServer, type Server } from "node:http";
import { performance } from "node:perf_hooks";
import { request } from "undici";
import { healthInfo, sendHealth } from "../../../runtime/core/health.js";
import { listen, MemoryDatabase, memoryLogger, stop } from "./helpers.js";

const db = new MemoryDatabase();
const memory = memoryLogger("warn");
let server: Server;
let url: string;

beforeAll(async () => {
  // Started 3.5 s "ago" so uptime is visible without waiting.
  const info = healthInfo("2.0.1", performance.now() - 3500);
  server = createServer((_req, res) => void sendHealth(res, db, info, memory.log, 100));
  url = await listen(server);
});

afterAll(async () => {
  await stop(server);
});

async function health(): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  const res = await request(url);
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown>, headers: res.headers };
}

describe("health", () => {
  test("200 with status, version and whole uptime seconds while the database answers", async () => {
    db.pingMode = "ok";
    const res = await health();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", version: "2.0.1", uptime_seconds: 3 });
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  test("503 unavailable when the ping fails; the reason is logged, not sent", async () => {
    db.pingMode = "fail";
    const res = await health();
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: "unavailable", version: "2.0.1", uptime_seconds: expect.any(Number) });
    expect(JSON.stringify(res.body)).not.toContain("refused");
    expect(memory.lines().some((l) => String(l.reason).includes("connection refused"))).toBe(true);
  });

  test("an in-process database answers its ping at once, or throws: 200 or 503 alike", async () => {
    db.pingMode = "now";
    expect((await health()).status).toBe(200);
    db.pingMode = "refused";
    const res = await health();
    expect(res.status).toBe(503);
    expect(res.body.status).toBe("unavailable");
    expect(memory.lines().some((l) => String(l.reason).includes("database is closed"))).toBe(true);
  });

  test("503 when the ping does not answer in time", async () => {
    db.pingMode = "hang";
    const started = Date.now();
    const res = await health();
    expect(res.status).toBe(503);
    expect(res.body.status).toBe("unavailable");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test("a version that needs escaping or is not ASCII is answered whole, its Content-Length in bytes", async () => {
    const version = 'été "2" \\ 🚀';
    const own = createServer((_req, res) => void sendHealth(res, db, healthInfo(version), memory.log, 100));
    const ownUrl = await listen(own);
    try {
      for (const status of ["ok", "fail"] as const) {
        db.pingMode = status;
        const res = await request(ownUrl);
        const bytes = Buffer.from(await res.body.arrayBuffer());
        expect(Number(res.headers["content-length"])).toBe(bytes.length);
        expect(JSON.parse(bytes.toString("utf8"))).toEqual({
          status: status === "ok" ? "ok" : "unavailable",
          version,
          uptime_seconds: 0,
        });
      }
    } finally {
      await stop(own);
    }
  });
});
