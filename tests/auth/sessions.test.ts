// Sessions for pages (runtime/auth/sessions.ts) over HTTP: the cookie's attributes, a new
// id at every sign-in, sign-out that ends the session for real, and the cross-site check
// on cookie-authenticated form posts.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import Database from "better-sqlite3";
import { call } from "../support/http.js";
import { CHEAP_PASSWORDS, startServer, type TestServer } from "../support/server.js";
import { type Accounts, SECRET, post, rawRequest, startAccounts } from "./support.js";

let accounts: Accounts;
let url: string;

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const CREDENTIALS = "email=sam%40example.com&password=sesame-open";

/** Signs in through the form; the Set-Cookie header and the session value in it. */
async function signIn(headers: Record<string, string> = {}): Promise<{ setCookie: string; value: string }> {
  const answer = await call(`${url}/session`, { method: "POST", headers: { ...FORM, ...headers }, body: CREDENTIALS });
  expect(answer.status).toBe(303);
  expect(answer.headers.location).toBe("/");
  const setCookie = String(answer.headers["set-cookie"]);
  return { setCookie, value: /svc_session=([^;]*)/.exec(setCookie)![1] };
}

const me = (value: string) => post(accounts.server, "/api/accounts:me", {}, { cookie: `svc_session=${value}` });

beforeAll(async () => {
  // Sessions, not what a hash costs: hashes at N = 2^10 (tests/README.md).
  accounts = await startAccounts(CHEAP_PASSWORDS);
  url = accounts.server.url;
  expect((await post(accounts.server, "/api/users", { email: "sam@example.com", name: "Sam", password: "sesame-open" })).status).toBe(200);
});

afterAll(async () => {
  await accounts.stop();
});

describe("signing in from a form", () => {
  test("sets an HttpOnly, SameSite=Lax, Path=/ cookie with the configured lifetime; not Secure over plain-HTTP loopback", async () => {
    const { setCookie, value } = await signIn();
    expect(setCookie).toBe(`svc_session=${value}; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax`);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("for any other host the cookie is Secure and __Host- prefixed, and only that name is read", async () => {
    const raw = await rawRequest(
      accounts.server.port,
      `POST /session HTTP/1.1\r\nHost: accounts.example\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${CREDENTIALS.length}\r\nConnection: close\r\n\r\n${CREDENTIALS}`,
    );
    const cookie = /Set-Cookie: (.*)\r\n/i.exec(raw)![1];
    expect(cookie).toMatch(/^__Host-svc_session=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const value = /=([^;]*)/.exec(cookie)![1];
    const ask = (name: string) =>
      rawRequest(
        accounts.server.port,
        `POST /api/accounts:whoami HTTP/1.1\r\nHost: accounts.example\r\nCookie: ${name}=${value}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
    expect(await ask("__Host-svc_session")).toContain('"signed_in":true');
    // Without the prefix the cookie could have been planted by a sibling host: it is not read.
    expect(await ask("svc_session")).toContain('"signed_in":false');
  });

  test("the cookie is the caller: requires auth and auth.id see the account", async () => {
    const { value } = await signIn();
    const answer = await me(value);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({ email: "sam@example.com", name: "Sam" });
  });

  test("every sign-in starts a new session id, and ends the one the browser came with", async () => {
    const first = await signIn();
    const second = await signIn({ cookie: `svc_session=${first.value}` });
    expect(second.value).not.toBe(first.value);
    expect((await me(second.value)).status).toBe(200);
    expect((await me(first.value)).status).toBe(401);
  });

  test("a wrong password re-renders the form with the message and sets no cookie", async () => {
    const answer = await call(`${url}/session`, {
      method: "POST",
      headers: { ...FORM, referer: `${url}/sign-in` },
      body: "email=sam%40example.com&password=nope",
    });
    expect(answer.status).toBe(422);
    expect(answer.headers["set-cookie"]).toBeUndefined();
    expect(answer.text).toContain("wrong e-mail or password");
    expect(answer.text).toContain('value="sam@example.com"');
    expect(answer.text).not.toContain("nope");
  });

  test("the database keeps a digest of the cookie, never the cookie", async () => {
    const { value } = await signIn();
    const db = new Database(join(accounts.dir, "accounts.db"), { readonly: true });
    try {
      const rows = db.prepare("SELECT id, subject, roles, expires_at FROM svc_sessions").all() as { id: string; roles: string }[];
      expect(rows.length).toBeGreaterThan(0);
      expect(JSON.stringify(rows)).not.toContain(value);
      for (const r of rows) expect(r.id).toMatch(/^[0-9a-f]{64}$/);
      expect(rows.map((r) => r.roles)).toContain('["member"]');
    } finally {
      db.close();
    }
  });
});

describe("an Idempotency-Key on a sign-in", () => {
  test("is never recorded: the retry starts a session of its own, and the table holds no row for either", async () => {
    const key = { "idempotency-key": "sign-in-replay-1" };
    const body = { email: "sam@example.com", password: "sesame-open" };
    const rows = () => {
      const db = new Database(join(accounts.dir, "accounts.db"), { readonly: true });
      try {
        return db.prepare("SELECT * FROM svc_idempotency_keys").all();
      } finally {
        db.close();
      }
    };
    const before = rows();
    const values: string[] = [];
    for (const answer of [await post(accounts.server, "/api/accounts:sign_in_session", body, key), await post(accounts.server, "/api/accounts:sign_in_session", body, key)]) {
      expect([answer.status, answer.headers["idempotent-replayed"]]).toEqual([200, undefined]);
      values.push(/svc_session=([^;]*)/.exec(String(answer.headers["set-cookie"]))![1]);
    }
    expect(values[1]).not.toBe(values[0]);
    // Both sign-ins ran: each started a session that works.
    for (const value of values) expect((await me(value)).status).toBe(200);
    expect(rows()).toEqual(before);
  });
});

describe("signing out", () => {
  test("ends the session: the copied cookie stops working at once, and a stale cookie is cleared", async () => {
    const { value } = await signIn();
    expect((await me(value)).status).toBe(200);
    const out = await call(`${url}/session?handler=out`, { method: "POST", headers: { ...FORM, cookie: `svc_session=${value}` }, body: "" });
    expect(out.status).toBe(303);
    expect(out.headers["set-cookie"]).toBe("svc_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");

    const replayed = await me(value);
    expect(replayed.status).toBe(401);
    expect(replayed.headers["www-authenticate"]).toBe("Bearer");
    const page = await call(`${url}/`, { headers: { cookie: `svc_session=${value}`, accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Sign in to see your notes.");
    expect(page.headers["set-cookie"]).toBe("svc_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");
  });

  test("an expired session is no session", async () => {
    const { value } = await signIn();
    const db = new Database(join(accounts.dir, "accounts.db"));
    try {
      db.prepare("UPDATE svc_sessions SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    } finally {
      db.close();
    }
    expect((await me(value)).status).toBe(401);
  });
});

describe("auth in route files", () => {
  test("auth.id is the caller's id, and left out (the argument's default) when anonymous", async () => {
    const { value } = await signIn();
    await call(`${url}/notes`, { method: "POST", headers: { ...FORM, cookie: `svc_session=${value}` }, body: "body=for%20mine" });
    const mine = await call(`${url}/api/mine`, { headers: { cookie: `svc_session=${value}` } });
    expect(mine.status).toBe(200);
    expect(mine.json.data.records.map((n: { body: string }) => n.body)).toContain("for mine");
    const anonymous = await call(`${url}/api/mine`);
    expect(anonymous.json).toEqual({ ok: true, data: { records: [] } });
  });
});

describe("cookie-authenticated form posts", () => {
  test("keep the cross-site check: a note posted from another site is a 403 and writes nothing", async () => {
    const { value } = await signIn();
    const cross = await call(`${url}/notes`, {
      method: "POST",
      headers: { ...FORM, cookie: `svc_session=${value}`, "sec-fetch-site": "cross-site", origin: "https://evil.example" },
      body: "body=forged",
    });
    expect(cross.status).toBe(403);
    const same = await call(`${url}/notes`, { method: "POST", headers: { ...FORM, cookie: `svc_session=${value}` }, body: "body=mine" });
    expect(same.status).toBe(303);
    const notes = await post(accounts.server, "/api/accounts:my_notes", {}, { cookie: `svc_session=${value}` });
    const bodies = notes.json.data.map((n: { body: string }) => n.body);
    expect(bodies).toContain("mine");
    expect(bodies).not.toContain("forged");
  });

  test("a form post that needs a caller and has none answers 401 as the endpoint does", async () => {
    const answer = await call(`${url}/notes`, { method: "POST", headers: { ...FORM, referer: `${url}/` }, body: "body=x" });
    expect(answer.status).toBe(401);
  });
});

describe("behind a proxy that sends Host: 127.0.0.1", () => {
  // The proxy terminates TLS and talks to the server on loopback: the cookie must still be
  // Secure and __Host-, from what the operator configured, not from the Host header.
  const viaProxy = (server: TestServer, headers: string) =>
    rawRequest(
      server.port,
      `POST /session HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${headers}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${CREDENTIALS.length}\r\nConnection: close\r\n\r\n${CREDENTIALS}`,
    );
  const whoami = (server: TestServer, cookie: string, headers = "") =>
    rawRequest(
      server.port,
      `POST /api/accounts:whoami HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${headers}Cookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
  const SECURE = /^__Host-svc_session=([A-Za-z0-9_-]{43}); Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax; Secure$/;

  test("with a https public_url the cookie is Secure and __Host-, and only that name is read back", async () => {
    const server = await startServer(accounts.dir, ["--db", join(accounts.dir, "accounts.db"), "--public-url", "https://accounts.example"], { JWT_SECRET: SECRET, ...CHEAP_PASSWORDS });
    try {
      const cookie = /Set-Cookie: (.*)\r\n/i.exec(await viaProxy(server, ""))![1];
      expect(cookie).toMatch(SECURE);
      const value = SECURE.exec(cookie)![1];
      expect(await whoami(server, `__Host-svc_session=${value}`)).toContain('"signed_in":true');
      expect(await whoami(server, `svc_session=${value}`)).toContain('"signed_in":false');
    } finally {
      await server.stop();
    }
  });

  test("with trust_proxy the forwarded host decides; without it a forged X-Forwarded-Host changes nothing", async () => {
    const server = await startServer(accounts.dir, ["--db", join(accounts.dir, "accounts.db"), "--trust-proxy", "true"], { JWT_SECRET: SECRET, ...CHEAP_PASSWORDS });
    try {
      const cookie = /Set-Cookie: (.*)\r\n/i.exec(await viaProxy(server, "X-Forwarded-Host: accounts.example\r\n"))![1];
      expect(cookie).toMatch(SECURE);
      const value = SECURE.exec(cookie)![1];
      expect(await whoami(server, `__Host-svc_session=${value}`, "X-Forwarded-Host: accounts.example\r\n")).toContain('"signed_in":true');
    } finally {
      await server.stop();
    }
    // The example's own server trusts no proxy: plain-HTTP loopback development, whatever a client claims.
    const direct = /Set-Cookie: (.*)\r\n/i.exec(await viaProxy(accounts.server, "X-Forwarded-Host: accounts.example\r\n"))![1];
    expect(direct).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
  });
});
