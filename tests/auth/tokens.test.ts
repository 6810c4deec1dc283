// JWTs end to end on the accounts example (docs/auth.md): sign-up and sign-in issue tokens,
// `requires` and `auth` see them, and every forged, stale or misaddressed token is a 401
// with `WWW-Authenticate: Bearer error="invalid_token"` wherever it is sent.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import Database from "better-sqlite3";
import { SignJWT, decodeJwt, decodeProtectedHeader } from "jose";
import { call } from "../support/http.js";
import { type Accounts, AUDIENCE, ISSUER, canonicalVariants, flipPayload, hs256, post, rawRequest, SECRET, startAccounts } from "./support.js";

let accounts: Accounts;
let url: string;
let token: string;
let userId: string;

beforeAll(async () => {
  accounts = await startAccounts();
  url = accounts.server.url;
  const signUp = await post(accounts.server, "/api/users", { email: "Ada@Example.com ", name: "Ada", password: "correct horse" });
  expect(signUp.status).toBe(200);
  const signIn = await post(accounts.server, "/api/users/login", { email: "ada@example.com", password: "correct horse" });
  token = signIn.json.data.token;
  userId = signIn.json.data.id;
});

afterAll(async () => {
  await accounts.stop();
});

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

/** A token the example's secret signs, with no `typ` in its header. */
function untyped(sub: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub, iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 600 })
    .setProtectedHeader({ alg: "HS256" })
    .sign(new TextEncoder().encode(SECRET));
}

describe("issued tokens", () => {
  test("carry sub, roles, iat (to the millisecond), exp = iat's second + lifetime, iss and aud, signed HS256", () => {
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "JWT" });
    const claims = decodeJwt(token);
    expect(claims.sub).toBe(userId);
    expect(claims.roles).toEqual(["member"]);
    expect(claims.iss).toBe(ISSUER);
    expect(claims.aud).toBe(AUDIENCE);
    expect(claims.exp! - Math.floor(claims.iat!)).toBe(3600);
  });

  test("the answer carries no password, and sign-in checks it", async () => {
    const signIn = await post(accounts.server, "/api/users/login", { email: "ada@example.com", password: "correct horse" });
    expect(signIn.status).toBe(200);
    expect(Object.keys(signIn.json.data).sort()).toEqual(["id", "name", "token"]);
    expect(signIn.text).not.toMatch(/scrypt|correct horse/);
    expect(decodeJwt(signIn.json.data.token).sub).toBe(userId);
  });

  test("the e-mail lookup is private: no endpoint answers whether an address has an account", async () => {
    const lookup = await fetch(`${url}/api/accounts:account_by_email?email=ada%40example.com`);
    expect(lookup.status).toBe(404);
    expect(await lookup.text()).not.toContain(userId);
  });

  test("two accounts with the same password store different hashes, never the password", async () => {
    for (const email of ["same1@example.com", "same2@example.com"]) {
      expect((await post(accounts.server, "/api/users", { email, name: "Same", password: "one password" })).status).toBe(200);
    }
    const db = new Database(join(accounts.dir, "accounts.db"), { readonly: true });
    try {
      const rows = db.prepare("SELECT password FROM account WHERE email LIKE 'same%' ORDER BY email").all() as { password: string }[];
      expect(rows).toHaveLength(2);
      expect(rows[0].password).not.toBe(rows[1].password);
      for (const r of rows) expect(r.password).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
      expect(JSON.stringify(rows)).not.toContain("one password");
    } finally {
      db.close();
    }
  });

  test("a wrong password and an unknown e-mail read the same", async () => {
    const wrong = await post(accounts.server, "/api/users/login", { email: "ada@example.com", password: "wrong horse" });
    const unknown = await post(accounts.server, "/api/users/login", { email: "nobody@example.com", password: "wrong horse" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual(unknown.json);
    expect(wrong.json.error).toBe("wrong e-mail or password");
    // The action's own `fail 401` names how to authenticate (RFC 9110 §15.5.2), as a failed `requires` does.
    for (const answer of [wrong, unknown]) expect(answer.headers["www-authenticate"]).toBe("Bearer");
  });

  test("requires auth: the token's subject is the caller", async () => {
    const me = await call(`${url}/api/user`, { headers: bearer(token) });
    expect(me.status).toBe(200);
    expect(me.json.data).toEqual({ id: userId, email: "ada@example.com", name: "Ada", role: "member" });
    const none = await call(`${url}/api/user`);
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe("Bearer");
  });

  test("the scheme words of [auth] schemes are all accepted: Token as well as Bearer", async () => {
    const me = await call(`${url}/api/user`, { headers: { authorization: `Token ${token}` } });
    expect(me.status).toBe(200);
    expect(me.json.data.id).toBe(userId);
  });

  test("requires role: a member's token is a 403 insufficient_scope", async () => {
    const answer = await post(accounts.server, "/api/accounts:count_notes", {}, bearer(token));
    expect(answer.status).toBe(403);
    expect(answer.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope"');
    const admin = await hs256({ sub: userId, roles: ["admin"] });
    expect((await post(accounts.server, "/api/accounts:count_notes", {}, bearer(admin))).json).toEqual({ ok: true, data: 0 });
  });

  test("optional auth: anonymous and signed-in callers of the same action see different answers", async () => {
    const anonymous = await post(accounts.server, "/api/accounts:whoami", {});
    const signedIn = await post(accounts.server, "/api/accounts:whoami", {}, bearer(token));
    expect(anonymous.json.data).toEqual({ signed_in: false, id: null, roles: null });
    expect(signedIn.json.data).toEqual({ signed_in: true, id: userId, roles: ["member"] });
  });

  test("notes belong to the caller who wrote them", async () => {
    expect((await post(accounts.server, "/api/users", { email: "bob@example.com", name: "Bob", password: "battery staple" })).status).toBe(200);
    const other = await post(accounts.server, "/api/users/login", { email: "bob@example.com", password: "battery staple" });
    const otherToken = other.json.data.token;
    expect((await post(accounts.server, "/api/notes", { body: "Ada's" }, bearer(token))).status).toBe(200);
    expect((await post(accounts.server, "/api/notes", { body: "Bob's" }, bearer(otherToken))).status).toBe(200);
    const mine = await call(`${url}/api/notes`, { headers: bearer(token) });
    expect(mine.json.data.map((n: { body: string; owner: string }) => [n.body, n.owner])).toEqual([["Ada's", userId]]);
  });
});

describe("refused tokens: 401 invalid_token, even where no caller is needed", () => {
  const refused = async (headers: Record<string, string>, expected = 'Bearer error="invalid_token"') => {
    for (const answer of [
      await post(accounts.server, "/api/accounts:whoami", {}, headers),
      await call(`${url}/api/user`, { headers }),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.headers["www-authenticate"]).toBe(expected);
      expect(answer.json.ok).toBe(false);
    }
  };

  test("alg none", async () => {
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const payload = Buffer.from(JSON.stringify({ sub: userId, roles: ["admin"], iss: ISSUER, aud: AUDIENCE, exp: now + 600 })).toString("base64url");
    await refused(bearer(`${header}.${payload}.`));
    await refused(bearer(`${header}.${payload}.x`));
  });

  test("expired", async () => {
    const now = Math.floor(Date.now() / 1000);
    await refused(bearer(await hs256({ sub: userId, iat: now - 7200, exp: now - 3600 })));
  });

  test("not yet valid (nbf in the future)", async () => {
    await refused(bearer(await hs256({ sub: userId, nbf: Math.floor(Date.now() / 1000) + 3600 })));
  });

  test("wrong iss, wrong aud", async () => {
    await refused(bearer(await hs256({ sub: userId, iss: "https://elsewhere.example" })));
    await refused(bearer(await hs256({ sub: userId, aud: "another-app" })));
  });

  test("signed with another secret", async () => {
    await refused(bearer(await hs256({ sub: userId }, { secret: "another-secret-another-secret-another-secret!!" })));
  });

  test("a flipped payload byte", async () => {
    await refused(bearer(flipPayload(token)));
  });

  test("no subject", async () => {
    await refused(bearer(await hs256({})));
  });

  test("one spelling per token: the issued token with a variant signature (same bytes) is refused", async () => {
    for (const variant of canonicalVariants(token)) await refused(bearer(variant));
    expect((await call(`${url}/api/user`, { headers: bearer(token) })).status).toBe(200);
  });

  test("typ: the server's own tokens say JWT; none, or another type, is refused", async () => {
    await refused(bearer(await untyped(userId)));
    for (const typ of ["at+jwt", "dpop+jwt"]) await refused(bearer(await hs256({ sub: userId }, { header: { typ } })));
  });

  test("an iat from tomorrow is refused; a clock 10 s behind the issuer's is forgiven", async () => {
    const now = Math.floor(Date.now() / 1000);
    await refused(bearer(await hs256({ sub: userId, iat: now + 86400, exp: now + 90000 })));
    const ahead = await hs256({ sub: userId, iat: now + 10 });
    expect((await call(`${url}/api/user`, { headers: bearer(ahead) })).status).toBe(200);
  });

  test("a wrong scheme word, and a scheme without a token", async () => {
    await refused({ authorization: `Basic ${token}` });
    await refused({ authorization: `JWT ${token}` });
    await refused({ authorization: "Bearer" });
  });

  test("the message says what was wrong, never the token", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await hs256({ sub: userId, iat: now - 7200, exp: now - 3600 });
    const answer = await post(accounts.server, "/api/accounts:whoami", {}, bearer(expired));
    expect(answer.json.error).toMatch(/^invalid token: .*exp/);
    expect(answer.text).not.toContain(expired);
  });

  test("two Authorization headers are refused, even when both are valid", async () => {
    const body = "{}";
    const raw = await rawRequest(
      accounts.server.port,
      `POST /api/accounts:whoami HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain("send one Authorization header");
  });

  test("a token in the query string is never read: it is an unknown argument", async () => {
    const answer = await call(`${url}/api/user?access_token=${token}`);
    expect(answer.status).toBe(401);
    const whoami = await call(`${url}/api/accounts:whoami?access_token=${token}`, { method: "POST", json: {} });
    expect(whoami.json.data.signed_in).toBe(false);
  });
});
