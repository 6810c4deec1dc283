import { describe, test, expect } from "../../support/jest.js";
import { Logger, requestIdFrom } from "../../../runtime/core/log.js";
import { loggedPath } from "../../../runtime/core/request-line.js";
import { memoryLogger } from "./helpers.js";

describe("logger", () => {
  test("JSON lines with time, level, msg and fields", () => {
    const { log, lines } = memoryLogger("info");
    log.info("listening", { address: "127.0.0.1:1" });
    const [line] = lines();
    expect(line).toEqual({ time: expect.any(String), level: "info", msg: "listening", address: "127.0.0.1:1" });
    expect(Date.parse(line.time as string)).not.toBeNaN();
  });

  test("filtered by level: error < warn < info < debug < trace", () => {
    const { log, lines } = memoryLogger("warn");
    log.error("e");
    log.warn("w");
    log.info("i");
    log.debug("d");
    log.trace("t");
    expect(lines().map((l) => l.msg)).toEqual(["e", "w"]);
    expect(log.enabled("warn")).toBe(true);
    expect(log.enabled("info")).toBe(false);
  });

  test("fields cannot overwrite time, level or msg; errors keep their stack", () => {
    const { log, lines } = memoryLogger("info");
    log.info("m", { level: "fake", msg: "fake", cause: new Error("boom") });
    const [line] = lines();
    expect(line.level).toBe("info");
    expect(line.msg).toBe("m");
    expect((line.cause as { message: string; stack: string }).message).toBe("boom");
    expect((line.cause as { stack: string }).stack).toContain("log.test");
  });

  test("a field that cannot be serialized does not lose the line", () => {
    const { log, lines } = memoryLogger("info");
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    log.info("still here", { cycle, big: 1n });
    const [line] = lines();
    expect(line.msg).toBe("still here");
    expect(typeof line.log_error).toBe("string");
  });

  test("the per-request line at info", () => {
    const { log, lines } = memoryLogger("info");
    log.request({ requestId: "abc", method: "GET", logged: null, path: '/a"b', status: 200, durationMs: 1.23456 });
    expect(lines()[0]).toEqual({
      time: expect.any(String),
      level: "info",
      msg: "request",
      request_id: "abc",
      method: "GET",
      path: '/a"b',
      status: 200,
      duration_ms: 1.23,
    });
  });

  test("a declared path's line, kept between requests, is the same line a path made per request gives", () => {
    const { log, lines } = memoryLogger("info");
    const declared = loggedPath("/api/m:get_it");
    expect(declared).not.toBeNull();
    const requests = [
      { method: "GET", status: 200 },
      { method: "GET", status: 200 },
      { method: "HEAD", status: 200 },
      { method: "GET", status: 404 },
      { method: "GET", status: 200 },
    ];
    for (const [i, r] of requests.entries()) {
      const entry = { requestId: `id-${i}`, path: "/api/m:get_it", durationMs: i + 0.5, ...r };
      log.request({ ...entry, logged: declared });
      log.request({ ...entry, logged: null });
    }
    const all = lines();
    expect(all).toHaveLength(requests.length * 2);
    for (let i = 0; i < all.length; i += 2) {
      const { time: t1, ...kept } = all[i];
      const { time: t2, ...made } = all[i + 1];
      expect(kept).toEqual(made);
      expect(made).toMatchObject({ ...requests[i / 2], path: "/api/m:get_it", request_id: `id-${i / 2}`, duration_ms: i / 2 + 0.5 });
      expect(t1).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(t2).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  test("traced, a request's line ends with its trace id, for a declared path or any other; a request not in flight has none", () => {
    const { log, lines } = memoryLogger("info");
    const traceIds = new Map([["in-flight", "4bf92f3577b34da6a3ce929d0e0e4736"]]);
    log.traceIdOf = (requestId) => traceIds.get(requestId);
    const declared = loggedPath("/api/m:get_it");
    log.request({ requestId: "in-flight", method: "GET", logged: declared, path: "/api/m:get_it", status: 200, durationMs: 1.5 });
    log.request({ requestId: "in-flight", method: "POST", logged: null, path: '/caf\u00e9/"x"', status: 201, durationMs: 2 });
    log.request({ requestId: "gone", method: "GET", logged: declared, path: "/api/m:get_it", status: 200, durationMs: 3 });
    const all = lines().map(({ time, ...rest }) => rest);
    const keys = ["level", "msg", "request_id", "method", "path", "status", "duration_ms"];
    expect(all.map((line) => Object.keys(line))).toEqual([[...keys, "trace_id"], [...keys, "trace_id"], keys]);
    expect(all[0]).toMatchObject({ trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", duration_ms: 1.5, path: "/api/m:get_it" });
    expect(all[1]).toMatchObject({ trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", path: '/caf\u00e9/"x"', status: 201 });
  });

  test("a declared path that would need escaping is not kept", () => {
    expect(loggedPath('/a"b')).toBeNull();
    expect(loggedPath("/caf\u00e9")).toBeNull();
  });

  test("request lines are skipped below info", () => {
    const { log, lines } = memoryLogger("warn");
    log.request({ requestId: "abc", method: "GET", logged: null, path: "/", status: 200, durationMs: 1 });
    expect(lines()).toEqual([]);
  });

  test("lines of one tick go out in one write; errors go out at once", async () => {
    const writes: string[] = [];
    const log = new Logger("info", (chunk) => writes.push(chunk));
    log.info("a");
    log.info("b");
    expect(writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(1);
    expect(writes[0].split("\n").filter(Boolean)).toHaveLength(2);
    log.error("now");
    expect(writes).toHaveLength(2);
  });
});

describe("request ids", () => {
  test("a sane incoming X-Request-Id is kept", () => {
    expect(requestIdFrom("abc-123_X.y")).toBe("abc-123_X.y");
    expect(requestIdFrom("a".repeat(128))).toBe("a".repeat(128));
  });

  test("anything else gets a fresh id", () => {
    for (const bad of ["a".repeat(129), "has space", 'quote"', "", "é", undefined, ["a", "b"]]) {
      const id = requestIdFrom(bad);
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    }
  });

  test("fresh ids are the process's prefix and a base32 counter, flat strings counting up with carries", () => {
    const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    const value = (digits: string): number => [...digits].reduce((n, ch) => n * 32 + ALPHABET.indexOf(ch), 0);
    const ids = Array.from({ length: 70 }, () => requestIdFrom(undefined));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{8}-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBe(1);
    const counts = ids.map((id) => value(id.slice(9)));
    // 70 in a row pass at least two carries (every 32).
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBe(counts[i - 1] + 1);
  });

  test("fresh ids are unique", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => requestIdFrom(undefined)));
    expect(ids.size).toBe(1000);
  });
});
