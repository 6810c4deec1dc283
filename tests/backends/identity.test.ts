// Identity on the network backends (examples/accounts): password hashes, JWTs and the
// session table `svc_sessions` behave as on SQLite, on PostgreSQL and on MariaDB.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { SECRET, post } from "../auth/support.js";
import { weakHashIsUpgraded } from "../auth/upgrade.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { buildTo, removeDir, startServer, type TestServer } from "../support/server.js";
import { join } from "node:path";
import { type Namespace, type NetBackend, backendAvailable, createNamespace } from "./support/databases.js";

for (const backend of ["postgres", "mysql"] as NetBackend[]) {
  if (!(await backendAvailable(backend))) {
    test.skip(`identity on ${backend} (no server)`, () => undefined);
    continue;
  }
  describe(`identity on ${backend}`, () => {
    let ns: Namespace;
    let out: string;
    let server: TestServer;

    beforeAll(async () => {
      ns = await createNamespace(backend, `id_${backend}`);
      out = await buildTo({ mode: "project", dir: join(repoRoot, "examples", "accounts") });
      server = await startServer(out, ["--backend", backend, "--db", ns.url], { JWT_SECRET: SECRET });
    });

    afterAll(async () => {
      await server?.stop();
      await ns?.drop();
      if (out) removeDir(out);
    });

    test("sign-up hashes, sign-in verifies and issues a token the server accepts", async () => {
      for (const email of ["a@example.com", "b@example.com"]) {
        expect((await post(server, "/api/users", { email, name: "Same", password: "same password" })).status).toBe(200);
      }
      const rows = await ns.admin("SELECT password FROM account ORDER BY email");
      expect(rows).toHaveLength(2);
      expect(rows[0].password).not.toBe(rows[1].password);
      expect(String(rows[0].password)).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
      const signIn = await post(server, "/api/users/login", { email: "a@example.com", password: "same password" });
      expect(signIn.status).toBe(200);
      const me = await call(`${server.url}/api/user`, { headers: { authorization: `Token ${signIn.json.data.token}` } });
      expect(me.json.data.email).toBe("a@example.com");
      expect((await post(server, "/api/users/login", { email: "a@example.com", password: "other" })).status).toBe(401);
    });

    test("a weak stored hash is upgraded after a successful sign-in, not after a failed one", async () => {
      const p = (i: number) => (backend === "postgres" ? `$${i}` : "?");
      await weakHashIsUpgraded(
        server,
        {
          read: async (email) => String((await ns.admin(`SELECT password FROM account WHERE email = ${p(1)}`, [email]))[0].password),
          write: async (email, hash) => void (await ns.admin(`UPDATE account SET password = ${p(1)} WHERE email = ${p(2)}`, [hash, email])),
        },
        "old@example.com",
      );
    });

    test("a session: cookie, caller, sign-out, the replayed cookie refused", async () => {
      const form = { "content-type": "application/x-www-form-urlencoded" };
      const signIn = await call(`${server.url}/session`, { method: "POST", headers: form, body: "email=b%40example.com&password=same%20password" });
      expect(signIn.status).toBe(303);
      const cookie = /svc_session=[^;]*/.exec(String(signIn.headers["set-cookie"]))![0];
      const whoami = () => post(server, "/api/accounts:whoami", {}, { cookie });
      expect((await whoami()).json.data.signed_in).toBe(true);
      expect(await ns.admin("SELECT subject FROM svc_sessions")).toHaveLength(1);
      const out = await call(`${server.url}/session?handler=out`, { method: "POST", headers: { ...form, cookie }, body: "" });
      expect(out.status).toBe(303);
      expect(await ns.admin("SELECT subject FROM svc_sessions")).toHaveLength(0);
      expect((await whoami()).json.data.signed_in).toBe(false);
      expect((await post(server, "/api/accounts:me", {}, { cookie })).status).toBe(401);
    });
  });
}
