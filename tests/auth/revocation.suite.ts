// Revocation attacked over HTTP (docs/auth.md "Revocation"), one suite run on SQLite
// (tests/auth/revocation.test.ts), PostgreSQL and MariaDB (tests/backends/revocation.test.ts):
// examples/accounts with a short `idle` (IDLE_S), served by two processes on one database, as a
// rolling deploy or `--workers` would. Every attack is a credential that was good before
// the revocation and is tried after it.

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { decodeJwt } from "jose";
import { call, type Answer } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { CHEAP_PASSWORDS, buildTo, removeDir, startServer, tmpDir, type TestServer } from "../support/server.js";
import { SECRET, hs256, post } from "./support.js";

/** The database a suite runs on, as the servers and the test itself reach it. */
export interface SuiteStore {
  /** `--backend … --db …` for the servers. */
  args: string[];
  /** Runs SQL outside the servers (literals inline: the tests write only values of their own). */
  admin(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** How long another process may go on accepting a revoked token: REFRESH_MS and a margin for a loaded machine. */
const STALE_MS = 2_000;
// Long enough that the other tests' sessions stay alive between their requests on a loaded
// machine: the servers hash at N = 2^10 (CHEAP_PASSWORDS), so a sign-in takes milliseconds,
// not the seconds of a full-cost hash that made this 10 s; the idle test sleeps 2.5 × this.
const IDLE_S = 6;
const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** examples/accounts with a short idle timeout, built. */
async function buildAccounts(): Promise<{ project: string; out: string }> {
  const project = tmpDir("accounts-");
  cpSync(join(repoRoot, "examples", "accounts"), project, { recursive: true });
  const toml = join(project, "svc.toml");
  writeFileSync(toml, readFileSync(toml, "utf8").replace(/^idle = ".*"$/m, `idle = "${IDLE_S}s"`));
  expect(readFileSync(toml, "utf8")).toContain(`idle = "${IDLE_S}s"`);
  return { project, out: await buildTo({ mode: "project", dir: project }) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function revocationSuite(name: string, open: () => Promise<SuiteStore>): void {
  describe(`revocation on ${name}`, () => {
    let store: SuiteStore;
    let built: { project: string; out: string };
    let a: TestServer;
    let b: TestServer;
    const extra: TestServer[] = [];

    const me = (server: TestServer, headers: Record<string, string>) => call(`${server.url}/api/user`, { headers });
    /** Sign-up answers no token (docs/auth.md, Sign-up without enumeration): the client signs in next. */
    const signUp = async (email: string): Promise<{ id: string; token: string }> => {
      const answer = await post(a, "/api/users", { email, name: email, password: "first password" });
      expect(answer.status).toBe(200);
      const signedIn = await post(a, "/api/users/login", { email, password: "first password" });
      expect(signedIn.status).toBe(200);
      return { id: signedIn.json.data.id, token: signedIn.json.data.token };
    };
    const signIn = async (server: TestServer, email: string, password = "first password"): Promise<string> => {
      const answer = await post(server, "/api/users/login", { email, password });
      expect(answer.status).toBe(200);
      return answer.json.data.token;
    };
    /** A session through the sign-in form: the `svc_session=…` pair to send back. */
    const session = async (server: TestServer, email: string, password = "first password"): Promise<string> => {
      const body = `email=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`;
      const answer = await call(`${server.url}/session`, { method: "POST", headers: FORM, body });
      expect(answer.status).toBe(303);
      return /svc_session=[^;]*/.exec(String(answer.headers["set-cookie"]))![0];
    };
    const sessionsOf = async (id: string) => (await store.admin(`SELECT id FROM svc_sessions WHERE subject = '${id}'`)).length;
    const refused = (answer: Answer) => {
      expect(answer.status).toBe(401);
      expect(answer.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
      expect(answer.json.error).toMatch(/revoked/);
    };

    beforeAll(async () => {
      store = await open();
      built = await buildAccounts();
      // One after the other: both bring the schema up at start.
      a = await startServer(built.out, store.args, { JWT_SECRET: SECRET, ...CHEAP_PASSWORDS });
      b = await startServer(built.out, store.args, { JWT_SECRET: SECRET, ...CHEAP_PASSWORDS });
    });

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop(), ...extra.map((s) => s.stop())]);
      await store?.close();
      if (built) {
        removeDir(built.out);
        removeDir(built.project);
      }
    });

    test("a JWT issued before revoke is refused after it, by the revoking process at once and by another within the staleness bound; one issued after is accepted", async () => {
      const user = await signUp("ada@example.com");
      const before = user.token;
      expect((await me(a, bearer(before))).status).toBe(200);
      expect((await me(b, bearer(before))).status).toBe(200);
      // An attacker's copy of the same token, made before the change (same subject, earlier iat).
      const stolen = await hs256({ sub: user.id, roles: ["member"], iat: Math.floor(Date.now() / 1000) - 60 });
      expect((await me(b, bearer(stolen))).status).toBe(200);

      const changed = await post(a, "/api/user/password", { password: "second password" }, bearer(before));
      expect(changed.status).toBe(200);
      const revokedAt = Date.now();
      const after = changed.json.data.token as string;
      expect(decodeJwt(after).iat! * 1000).toBeGreaterThanOrEqual(decodeJwt(before).iat! * 1000);

      refused(await me(a, bearer(before)));
      refused(await me(a, bearer(stolen)));
      expect((await me(a, bearer(after))).status).toBe(200);

      // The other process: a request it receives once the staleness bound has passed since the
      // revocation was committed (before `revokedAt`) is refused, and so is every one after.
      // The wait is the feature's; no bound is put on how long the requests take to answer.
      await sleep(Math.max(0, revokedAt + STALE_MS + 100 - Date.now()));
      refused(await me(b, bearer(before)));
      refused(await me(b, bearer(stolen)));
      expect((await me(b, bearer(after))).status).toBe(200);
      // A sign-in after the change, on either process, is good everywhere.
      const fresh = await signIn(b, "ada@example.com", "second password");
      expect((await me(a, bearer(fresh))).status).toBe(200);
      expect((await me(b, bearer(fresh))).status).toBe(200);
    });

    test("a password change ends the user's other sessions and keeps this one; sign out everywhere ends them all, and the tokens", async () => {
      const user = await signUp("grace@example.com");
      const here = await session(a, "grace@example.com");
      const phone = await session(b, "grace@example.com");
      const laptop = await session(a, "grace@example.com");
      const other = await signUp("alan@example.com");
      const bystander = await session(a, "alan@example.com");
      expect(await sessionsOf(user.id)).toBe(3);

      const changed = await post(a, "/api/user/password", { password: "second password" }, { cookie: here });
      expect(changed.status).toBe(200);
      expect(changed.json.data.sessions_ended).toBe(2);
      expect(await sessionsOf(user.id)).toBe(1);
      expect((await me(b, { cookie: phone })).status).toBe(401);
      expect((await me(a, { cookie: laptop })).status).toBe(401);
      expect((await me(b, { cookie: here })).status).toBe(200);
      // Someone else's session is not touched.
      expect((await me(b, { cookie: bystander })).status).toBe(200);
      expect(await sessionsOf(other.id)).toBe(1);

      const token = await signIn(a, "grace@example.com", "second password");
      const again = await session(b, "grace@example.com", "second password");
      const out = await call(`${a.url}/session?handler=everywhere`, { method: "POST", headers: { ...FORM, cookie: here }, body: "" });
      expect(out.status).toBe(303);
      expect(out.headers.location).toBe("/sign-in");
      expect(await sessionsOf(user.id)).toBe(0);
      expect((await me(a, { cookie: here })).status).toBe(401);
      expect((await me(b, { cookie: again })).status).toBe(401);
      refused(await me(a, bearer(token)));
      expect((await me(b, { cookie: bystander })).status).toBe(200);
    });

    test("a demoted admin gets 403: the admin's token and session are revoked, and a new sign-in carries the new role", async () => {
      const boss = await signUp("boss@example.com");
      const demoted = await signUp("demoted@example.com");
      await store.admin(`UPDATE account SET role = 'admin' WHERE id IN ('${boss.id}', '${demoted.id}')`);
      const bossToken = await signIn(a, "boss@example.com");
      const token = await signIn(a, "demoted@example.com");
      const cookie = await session(b, "demoted@example.com");
      const count = (server: TestServer, headers: Record<string, string>) => post(server, "/api/accounts:count_notes", {}, headers);
      expect((await count(a, bearer(token))).status).toBe(200);
      expect((await count(b, { cookie })).status).toBe(200);

      const set = await post(a, "/api/accounts/role", { account: demoted.id, role: "member" }, bearer(bossToken));
      expect(set.status).toBe(200);
      expect(set.json.data).toEqual({ id: demoted.id, role: "member" });

      refused(await count(a, bearer(token)));
      expect((await count(b, { cookie })).status).toBe(401);
      const newToken = await signIn(b, "demoted@example.com");
      const newCookie = await session(a, "demoted@example.com");
      const forbidden = await count(a, bearer(newToken));
      expect(forbidden.status).toBe(403);
      expect(forbidden.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope"');
      expect((await count(b, { cookie: newCookie })).status).toBe(403);
      // The other process too, once its copy is fresh.
      await sleep(STALE_MS + 100);
      refused(await count(b, bearer(token)));
      expect((await count(b, bearer(bossToken))).status).toBe(200);
    });

    test(`a session unused for idle (${IDLE_S}s) ends; one in use lives on, past the idle time, on either process`, async () => {
      await signUp("idle@example.com");
      const cookie = await session(a, "idle@example.com");
      const started = Date.now();
      // Used every 3/8 of idle for 1.5 × idle: each use moves the deadline (it has aged past a
      // quarter of idle; the row's, so the other process sees it).
      for (const server of [b, a, b, a]) {
        await sleep(IDLE_S * 375);
        expect((await me(server, { cookie })).status).toBe(200);
      }
      expect(Date.now() - started).toBeGreaterThan(IDLE_S * 1000);
      await sleep(IDLE_S * 1000 + 500);
      const idle = await me(a, { cookie });
      expect(idle.status).toBe(401);
      // A cookie of a session that ended is cleared.
      expect(String(idle.headers["set-cookie"])).toMatch(/^svc_session=; Max-Age=0/);
    });

    test("expired sessions and revocations are deleted by the server", async () => {
      const past = new Date(Date.now() - 60_000).toISOString();
      const later = new Date(Date.now() + 3_600_000).toISOString();
      await store.admin(
        `INSERT INTO svc_sessions (id, subject, roles, created_at, expires_at) VALUES ('${"e".repeat(64)}', 'gone', '[]', '${past}', '${past}'), ('${"f".repeat(64)}', 'kept', '[]', '${past}', '${later}')`,
      );
      const now = Date.now();
      await store.admin(
        `INSERT INTO svc_revocations (id, subject, not_before, expires_at) VALUES ('${"e".repeat(64)}', 'gone', ${now - 120_000}, ${now - 60_000}), ('${"f".repeat(64)}', 'kept', ${now}, ${now + 3_600_000})`,
      );
      // A process sweeps at its first look at each table, then at most once a minute: a new one.
      const c = await startServer(built.out, store.args, { JWT_SECRET: SECRET, ...CHEAP_PASSWORDS });
      extra.push(c);
      await signUp("sweep@example.com");
      const token = await signIn(c, "sweep@example.com");
      const cookie = await session(c, "sweep@example.com");
      expect((await me(c, bearer(token))).status).toBe(200);
      expect((await me(c, { cookie })).status).toBe(200);
      const subjects = async (table: string) => (await store.admin(`SELECT subject FROM ${table} WHERE subject IN ('gone', 'kept')`)).map((r) => r.subject);
      let left = { sessions: await subjects("svc_sessions"), revocations: await subjects("svc_revocations") };
      for (let i = 0; i < 30 && (left.sessions.length > 1 || left.revocations.length > 1); i++) {
        await sleep(100);
        left = { sessions: await subjects("svc_sessions"), revocations: await subjects("svc_revocations") };
      }
      expect(left).toEqual({ sessions: ["kept"], revocations: ["kept"] });
    });
  });
}
