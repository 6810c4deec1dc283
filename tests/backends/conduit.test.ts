// issue 12 part 8 on the network backends: RealWorld's official collection against
// examples/conduit on PostgreSQL and on MariaDB, as on SQLite (tests/conduit/newman.test.ts):
// every assertion passes, with nothing between the suite and the server. The JSON the SQL
// builds (authors, tag lists, booleans) must arrive the same on every backend for that.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { type Conduit, runCollection, startConduit } from "../conduit/support.js";
import { call } from "../support/http.js";
import { type Namespace, type NetBackend, backendAvailable, createNamespace } from "./support/databases.js";

for (const backend of ["postgres", "mysql"] as NetBackend[]) {
  if (!(await backendAvailable(backend))) {
    test.skip(`conduit on ${backend} (no server)`, () => undefined);
    continue;
  }
  describe(`conduit on ${backend}`, () => {
    let ns: Namespace;
    let conduit: Conduit;

    beforeAll(async () => {
      ns = await createNamespace(backend, `conduit_${backend}`);
      conduit = await startConduit(["--backend", backend, "--db", ns.url]);
    });

    afterAll(async () => {
      expect(await conduit?.stop()).toBe(0);
      await ns?.drop();
    });

    test("the official Conduit collection passes every assertion", async () => {
      const run = await runCollection(`${conduit.server.url}/api`);
      if (run.failures.length > 0) console.error(`newman failures on ${backend}:\n${run.failures.join("\n")}`);
      expect(run.failures).toEqual([]);
      expect(run.scriptErrors).toBe(0);
      expect(run.requests).toEqual({ total: 32, failed: 0 });
      expect(run.assertions).toEqual({ total: 311, failed: 0 });
    });

    test("a second run on the same database passes too (new users, the slug free again)", async () => {
      const run = await runCollection(`${conduit.server.url}/api`);
      expect(run.failures).toEqual([]);
      expect(run.assertions).toEqual({ total: 311, failed: 0 });
    });

    // issue 31 part 3b: registrations race past register's "taken" check; whichever way the
    // loser is stopped (its check run again after a serialization failure or deadlock, or the
    // unique index, declared `fail 422`), it gets Conduit's 422, never a 409 or a 5xx.
    test("four registrations of one username at once: one 201, three of Conduit's 422", async () => {
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          call(`${conduit.server.url}/api/users`, {
            json: { user: { username: "racer", email: `racer${i}@example.com`, password: "password1" } },
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422, 422]);
      for (const a of answers.filter((x) => x.status === 422)) {
        expect(a.json).toEqual({ errors: { body: ["username has already been taken"] } });
      }
    });

    test("answers are the same JSON as on SQLite: author an object, true/false, tags a sorted list, counts numbers", async () => {
      const api = (path: string, token?: string, json?: unknown, method?: string) =>
        call(`${conduit.server.url}/api${path}`, { method, json, headers: token ? { authorization: `Token ${token}` } : {} });
      const tokens: string[] = [];
      for (const name of ["ann", "ben"]) {
        const r = await api("/users", undefined, { user: { username: name, email: `${name}@example.com`, password: "password1" } });
        expect(r.status).toBe(201);
        tokens.push(r.json.user.token);
      }
      const [ann, ben] = tokens;
      const made = await api("/articles", ann, { article: { title: "Über Tags", description: "d", body: "b", tagList: ["b", "a", "b"] } });
      expect(made.status).toBe(201);
      expect((await api("/articles/uber-tags/favorite", ben, undefined, "POST")).status).toBe(200);
      expect((await api("/profiles/ann/follow", ben, undefined, "POST")).json.profile.following).toBe(true);
      const seen = await api("/articles?author=ann", ben);
      expect(seen.json).toEqual({
        articles: [
          {
            slug: "uber-tags",
            title: "Über Tags",
            description: "d",
            body: "b",
            tagList: ["a", "b"],
            createdAt: made.json.article.createdAt,
            updatedAt: made.json.article.updatedAt,
            favorited: true,
            favoritesCount: 1,
            author: { username: "ann", bio: null, image: null, following: true },
          },
        ],
        articlesCount: 1,
      });
      const anonymous = await api("/articles/uber-tags");
      expect([anonymous.json.article.favorited, anonymous.json.article.author.following]).toEqual([false, false]);
      expect((await api("/tags")).json.tags).toEqual(expect.arrayContaining(["a", "b"]));
      const bad = await api("/users", undefined, { user: { username: "x", password: "password1" } });
      expect([bad.status, bad.json]).toEqual([422, { errors: { body: ["user.email is required"] } }]);
    });
  });
}
