// Calls between actions on PostgreSQL and MySQL/MariaDB (docs/language.md §2.3, Calling an
// action): the callee runs on the caller's transaction, so a `fail` in a later call undoes
// the rows an earlier call wrote, as on SQLite (tests/http/composition.test.ts has the rest).

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

let dir: string;

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "fixtures", "private-and-composition", "input") });
});

afterAll(() => removeDir(dir));

for (const backend of ["postgres", "mysql"] as const) {
  const ok = await backendAvailable(backend);
  (ok ? describe : describe.skip)(`${backend}: private code and calls between actions`, () => {
    let ns: Namespace;
    let server: TestServer;
    let api: string;
    const profileOf = (name: string) => call(`${server.url}/api/profiles/${name}`, { headers: { accept: "application/json" } });

    beforeAll(async () => {
      ns = await createNamespace(backend, "composition");
      server = await startServer(dir, ["--db", ns.url, "--workers", "1"]);
      api = `${server.url}/api/social`;
    });

    afterAll(async () => {
      expect(await server?.stop()).toBe(0);
      await ns?.drop();
    });

    test("a private query has no URL; a route file still fetches it", async () => {
      expect((await call(`${api}:account_by_name?username=alice`)).status).toBe(404);
      const r = await call(`${api}:register`, { json: { username: "alice", email: "a@example.com", password: "pw" } });
      expect(r.json).toEqual({ ok: true, data: { username: "alice", bio: "", following: false } });
      expect((await profileOf("alice")).json.data.result).toMatchObject({ username: "alice", password_hash: "hashed:pw" });
    });

    test("a fail in the second call rolls back the first call's row", async () => {
      const r = await call(`${api}:register_pair`, { json: { first: "carol", second: "alice" } });
      expect(r.status).toBe(409);
      expect((await profileOf("carol")).status).toBe(404);
      const both = await call(`${api}:register_pair`, { json: { first: "dave", second: "erin" } });
      expect(both.status).toBe(200);
      expect((await profileOf("dave")).status).toBe(200);
      expect((await profileOf("erin")).status).toBe(200);
    });
  });
}
