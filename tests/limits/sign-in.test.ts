// The sign-in throttle (docs/auth.md, "Sign-in throttle") attacked on examples/accounts over
// real sockets, on SQLite, PostgreSQL and MariaDB. The server trusts X-Forwarded-For here, so
// that one test process can be many clients: each address below is one attacker or user.
// Defaults: an account takes 5 failures at once then one every 30 s; an address 20 then
// one every 30 s; an address that signed in to an account is not held back by it.
//
// On SQLite a guess is a full N = 2^17 hash, as an attacker would pay for it, except in the
// tests whose proof needs more hashes than one refill interval (30 s) holds on a loaded
// machine (1 to 3 s a hash; the address's 20, or an account's 5 and then more checks): those
// sign their accounts up and send their guesses through a second pair of processes on the
// same database file that hash at N = 2^10 (CHEAP_PASSWORDS; a stored hash is checked at its
// own cost), or a refill mid-test would let one more guess through. On PostgreSQL and
// MariaDB, where the same tests prove the count is shared through the database, every
// server hashes at N = 2^10: the throttle counts failures, whatever a hash costs, and the
// same attack at full cost would take minutes a backend.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { join } from "node:path";
import { SECRET } from "../auth/support.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { CHEAP_PASSWORDS, buildTo, removeDir, startServer, type TestServer } from "../support/server.js";
import { type Backend, backends, postJson } from "./support.js";

const PASSWORD = "correct horse battery";

// Some tests here pay for 20 and more full-cost hashes in a row on SQLite: 1 to 3 s each on
// a loaded 2-core machine. Nothing here is timed; this only bounds a hang.
const LIMIT = 300_000;

for (const { name, open } of await backends("signin")) {
  describe(`sign-in throttle (${name})`, () => {
    let backend: Backend;
    let dir: string;
    let server: TestServer;
    let other: TestServer;
    /** The pair the many-guess tests use: cheap hashes on SQLite too (see the top). */
    let fast: TestServer;
    let fastOther: TestServer;

    const signIn = (email: string, password: string, from: string, via: TestServer = server) =>
      postJson(via, "/api/users/login", { email, password }, { "x-forwarded-for": from });
    const signUp = async (email: string, via: TestServer = server) => {
      const r = await postJson(via, "/api/users", { email, name: email, password: PASSWORD }, { "x-forwarded-for": "198.51.100.1" });
      expect(r.status).toBe(200);
    };

    beforeAll(async () => {
      backend = await open();
      dir = await buildTo({ mode: "project", dir: join(repoRoot, "examples", "accounts") });
      const args = [...backend.args(dir), "--trust-proxy", "true"];
      const env = { JWT_SECRET: SECRET, ...(name === "sqlite" ? {} : CHEAP_PASSWORDS) };
      server = await startServer(dir, args, env);
      // A second process on the same database: the attack is counted wherever it lands.
      other = await startServer(dir, args, env);
      if (name === "sqlite") {
        fast = await startServer(dir, args, { ...env, ...CHEAP_PASSWORDS });
        fastOther = await startServer(dir, args, { ...env, ...CHEAP_PASSWORDS });
      } else {
        fast = server;
        fastOther = other;
      }
    }, LIMIT);

    afterAll(async () => {
      await Promise.all([server?.stop(), other?.stop(), ...(fast === server ? [] : [fast?.stop(), fastOther?.stop()])]);
      await backend?.drop();
      if (dir) removeDir(dir);
    }, LIMIT);

    test("guessing one account: 5 failures, then 429 for that account, right password or not", async () => {
      await signUp("target@example.com");
      const guesses = [];
      for (let i = 0; i < 5; i++) guesses.push((await signIn("target@example.com", `guess ${i}`, "203.0.113.1", i % 2 ? other : server)).status);
      expect(guesses).toEqual([401, 401, 401, 401, 401]);
      const refused = await signIn("target@example.com", "guess 5", "203.0.113.1");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(30);
      // The right password from another stranger's address tells nothing either: no oracle.
      const right = await signIn("target@example.com", PASSWORD, "203.0.113.2", other);
      expect(right.status).toBe(429);
      expect(right.json.data).toBeUndefined();
    }, LIMIT);

    test("the account's owner, on an address they signed in from, still signs in during the attack", async () => {
      await signUp("owner@example.com");
      expect((await signIn("owner@example.com", PASSWORD, "192.0.2.10")).status).toBe(200);
      // A guesser spread over addresses uses up the account.
      for (let i = 0; i < 6; i++) await signIn("owner@example.com", `guess ${i}`, `203.0.113.${20 + i}`);
      expect((await signIn("owner@example.com", "guess", "203.0.113.40")).status).toBe(429);
      const owner = await signIn("owner@example.com", PASSWORD, "192.0.2.10", other);
      expect(owner.status).toBe(200);
      expect(typeof owner.json.data.token).toBe("string");
    }, LIMIT);

    test("other accounts are not held back by an attack on one", async () => {
      await signUp("bystander@example.com", fast);
      await signUp("besieged@example.com", fast);
      for (let i = 0; i < 6; i++) await signIn("besieged@example.com", `guess ${i}`, "203.0.113.50", fast);
      expect((await signIn("besieged@example.com", PASSWORD, "203.0.113.51", fastOther)).status).toBe(429);
      // The bystander keeps its whole budget of 5 failures: 4 typos from 4 addresses, and a
      // fifth attempt from an address it never signed in from still signs in. Had the attack
      // on the other account counted a single failure here, that attempt would be a 429.
      for (let i = 0; i < 4; i++) expect((await signIn("bystander@example.com", `typo ${i}`, `192.0.2.${21 + i}`, fast)).status).toBe(401);
      expect((await signIn("bystander@example.com", PASSWORD, "192.0.2.20", fastOther)).status).toBe(200);
      // Served while the attack still holds: the besieged account is refused before and after.
      expect((await signIn("besieged@example.com", PASSWORD, "203.0.113.52", fast)).status).toBe(429);
    }, LIMIT);

    test("one address spraying many accounts is blocked after 20 failures, on every account", async () => {
      const from = "203.0.113.60";
      await signUp("sprayed@example.com", fast);
      const sprayed = [];
      for (let i = 0; i < 20; i++) sprayed.push((await signIn(`nobody${i}@example.com`, "guess", from, i % 2 ? fastOther : fast)).status);
      expect(sprayed.every((s) => s === 401)).toBe(true);
      const refused = await signIn("sprayed@example.com", PASSWORD, from, fast);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(30);
      // Another address is not touched.
      expect((await signIn("sprayed@example.com", PASSWORD, "192.0.2.30")).status).toBe(200);
    }, LIMIT);

    test("signing in to an account of one's own between guesses does not wash the address clean", async () => {
      await signUp("mallory@example.com", fast);
      const from = "203.0.113.80";
      for (let i = 0; i < 19; i++) expect((await signIn(`someone${i}@example.com`, "guess", from, fast)).status).toBe(401);
      expect((await signIn("mallory@example.com", PASSWORD, from, fastOther)).status).toBe(200);
      expect((await signIn("someone@example.com", "guess", from, fast)).status).toBe(401);
      expect((await signIn("someone-else@example.com", "guess", from, fastOther)).status).toBe(429);
    }, LIMIT);

    test("a success forgets the account's failures, not the address's", async () => {
      await signUp("forgetful@example.com", fast);
      for (let i = 0; i < 4; i++) expect((await signIn("forgetful@example.com", `typo ${i}`, "192.0.2.40", fast)).status).toBe(401);
      expect((await signIn("forgetful@example.com", PASSWORD, "192.0.2.41", fastOther)).status).toBe(200);
      const again = [];
      for (let i = 0; i < 5; i++) again.push((await signIn("forgetful@example.com", `typo ${i}`, "192.0.2.42", fast)).status);
      expect(again).toEqual([401, 401, 401, 401, 401]);
      expect((await signIn("forgetful@example.com", "typo", "192.0.2.43", fastOther)).status).toBe(429);
    }, LIMIT);

    test("the session sign-in form is throttled too, and shows the wait", async () => {
      await signUp("pages@example.com");
      const form = (password: string) =>
        call(`${server.url}/session`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.70" },
          body: `email=pages%40example.com&password=${encodeURIComponent(password)}`,
        });
      for (let i = 0; i < 5; i++) expect((await form(`guess ${i}`)).status).toBe(422);
      const refused = await form("guess");
      expect(refused.status).toBe(429);
      expect(refused.headers["retry-after"]).toBeDefined();
      expect(refused.text).toContain("too many failed sign-ins");
    }, LIMIT);
  });
}
