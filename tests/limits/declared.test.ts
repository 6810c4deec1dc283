// Declared rate limits (docs/language.md §2.6) attacked over real sockets, on SQLite,
// PostgreSQL and MariaDB: a burst past a limit is refused with 429 and the right
// Retry-After and RateLimit fields; servers on one database share counters; keys by
// address, caller and argument are independent; X-Forwarded-For counts only with
// --trust-proxy; route limits and route-file block limits hold too.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { hs256 } from "../auth/support.js";
import { call } from "../support/http.js";
import { buildTo, removeDir, type TestServer } from "../support/server.js";
import { type Backend, PROJECT, backends, postJson, serve, times } from "./support.js";

const statuses = (answers: { status: number }[]) => answers.map((a) => a.status);

for (const { name, open } of await backends("declared")) {
  describe(`declared limits (${name})`, () => {
    let backend: Backend;
    let dir: string;
    let a: TestServer;
    let b: TestServer;
    let proxied: TestServer;

    beforeAll(async () => {
      backend = await open();
      dir = await buildTo({ mode: "project", dir: PROJECT });
      a = await serve(dir, backend);
      // Two more processes on the same database: one plain, one behind a (pretend) proxy.
      b = await serve(dir, backend);
      proxied = await serve(dir, backend, ["--trust-proxy", "true"]);
    });

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop(), proxied?.stop()]);
      await backend?.drop();
      if (dir) removeDir(dir);
    });

    test("a burst past the limit answers 429 with Retry-After and the RateLimit fields", async () => {
      const ok = await times(3, () => postJson(a, "/api/limited:ping", {}));
      expect(statuses(ok)).toEqual([200, 200, 200]);
      // 3 per minute: one every 20 s, three at once.
      expect(ok.map((r) => r.headers["ratelimit"])).toEqual([
        '"limited.ping";r=2;t=20',
        '"limited.ping";r=1;t=40',
        '"limited.ping";r=0;t=20',
      ]);
      expect(ok[0].headers["ratelimit-policy"]).toBe('"limited.ping";q=3;w=60');
      const refused = await postJson(a, "/api/limited:ping", {});
      expect(refused.status).toBe(429);
      expect(refused.headers["retry-after"]).toBe("20");
      expect(refused.headers["ratelimit-policy"]).toBe('"limited.ping";q=3;w=60');
      expect(refused.headers["ratelimit"]).toBe('"limited.ping";r=0;t=20');
      expect(refused.json).toEqual({ ok: false, error: "too many requests; try again in 20 s" });
    });

    test("two server processes on one database share the counters", async () => {
      const email = `shared-${backend.name}@example.com`;
      expect((await postJson(a, "/api/limited:tried", { email })).status).toBe(200);
      expect((await postJson(b, "/api/limited:tried", { email })).status).toBe(200);
      expect((await postJson(a, "/api/limited:tried", { email })).status).toBe(429);
      expect((await postJson(b, "/api/limited:tried", { email })).status).toBe(429);
    });

    test("keys by argument are independent, and compared as a person reads them", async () => {
      const email = `victim-${backend.name}@example.com`;
      expect(statuses(await times(2, () => postJson(a, "/api/limited:tried", { email })))).toEqual([200, 200]);
      // The same address in other clothes is the same key.
      for (const variant of [email.toUpperCase(), `  ${email}\t`, email.replace("@", "\uFF20")]) {
        expect((await postJson(a, "/api/limited:tried", { email: variant })).status).toBe(429);
      }
      expect((await postJson(a, "/api/limited:tried", { email: `other-${backend.name}@example.com` })).status).toBe(200);
    });

    test("keys by auth.id are independent per caller", async () => {
      const alice = { authorization: `Bearer ${await hs256({ sub: `alice-${backend.name}` })}` };
      const bob = { authorization: `Bearer ${await hs256({ sub: `bob-${backend.name}` })}` };
      expect(statuses(await times(3, () => postJson(a, "/api/limited:mine", {}, alice)))).toEqual([200, 200, 429]);
      expect((await postJson(b, "/api/limited:mine", {}, alice)).status).toBe(429);
      expect((await postJson(a, "/api/limited:mine", {}, bob)).status).toBe(200);
    });

    test("X-Forwarded-For is ignored without --trust-proxy", async () => {
      // `a` and `b` count by the socket's address: a header any client can write changes nothing.
      const sent = await times(4, () => postJson(b, "/api/limited:echo", { text: "x" }));
      expect(statuses(sent)).toEqual([200, 200, 200, 200]);
      const spoofed = await Promise.all(["10.0.0.1", "10.0.0.2"].map((ip) => postJson(a, "/api/limited:ping", {}, { "x-forwarded-for": ip })));
      expect(statuses(spoofed)).toEqual([429, 429]);
    });

    test("with --trust-proxy, each forwarded address has its own counter, and prepending does not escape it", async () => {
      const first = await times(4, () => postJson(proxied, "/api/limited:ping", {}, { "x-forwarded-for": "10.0.1.1" }));
      expect(statuses(first)).toEqual([200, 200, 200, 429]);
      // The proxy appends the address it saw; what the client wrote before it is not the key.
      expect((await postJson(proxied, "/api/limited:ping", {}, { "x-forwarded-for": "192.0.2.7, 10.0.1.1" })).status).toBe(429);
      expect((await postJson(proxied, "/api/limited:ping", {}, { "x-forwarded-for": "10.0.1.2" })).status).toBe(200);
      // IPv6 counts by /64: another address of the same network is the same client.
      const v6 = await times(3, () => postJson(proxied, "/api/limited:ping", {}, { "x-forwarded-for": "2001:db8:1:2::1" }));
      expect(statuses(v6)).toEqual([200, 200, 200]);
      expect((await postJson(proxied, "/api/limited:ping", {}, { "x-forwarded-for": "2001:db8:1:2:ffff::9" })).status).toBe(429);
    });

    test("a declared route's limit, keyed by a path parameter", async () => {
      const get = (owner: string) => call(`${a.url}/notes/${owner}`);
      expect(statuses(await times(3, () => get(`ann-${backend.name}`)))).toEqual([200, 200, 429]);
      expect((await get(`ben-${backend.name}`)).status).toBe(200);
      // The route's limit is its own: the endpoint behind it is not limited elsewhere.
      expect((await call(`${a.url}/api/limited:notes?owner=ann-${backend.name}`)).status).toBe(200);
    });

    test("a route that shapes its answer answers 429 in the app's error shape", async () => {
      expect((await postJson(proxied, "/shaped", { text: "hi" }, { "x-forwarded-for": "10.0.2.1" })).json).toEqual({ said: "hi" });
      const refused = await postJson(proxied, "/shaped", { text: "hi" }, { "x-forwarded-for": "10.0.2.1" });
      expect(refused.status).toBe(429);
      expect(refused.headers["retry-after"]).toBe("60");
      expect(refused.json).toEqual({ errors: { body: ["too many requests; try again in 60 s"] } });
    });

    test("a route-file block's limit holds for JSON callers and forms alike", async () => {
      const email = `block-${backend.name}@example.com`;
      expect(statuses(await times(2, () => postJson(a, "/echo", { email })))).toEqual([200, 200]);
      const json = await postJson(a, "/echo", { email });
      expect(json.status).toBe(429);
      expect(json.headers["ratelimit-policy"]).toBe('"POST /echo";q=2;w=60');
      const form = await call(`${a.url}/echo`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `email=${encodeURIComponent(email)}`,
      });
      expect(form.status).toBe(429);
      expect(form.headers["retry-after"]).toBe("30");
      expect(form.text).toContain("too many requests");
    });
  });
}

test("--db :memory: keeps the counters in the process", async () => {
  const dir = await buildTo({ mode: "project", dir: PROJECT });
  const server = await serve(dir, { name: "sqlite", args: () => ["--backend", "sqlite", "--db", ":memory:"], drop: async () => undefined });
  try {
    expect(statuses(await times(4, () => postJson(server, "/api/limited:ping", {})))).toEqual([200, 200, 200, 429]);
  } finally {
    await server.stop();
    removeDir(dir);
  }
});
