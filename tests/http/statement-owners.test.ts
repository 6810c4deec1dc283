// A module and a resource of the same name (fixtures/module-named-like-resource): each
// statement is declared once, by the code its owner says runs it, so the built server
// loads and serves. It used to stop at load with `Identifier 'purgeSql1' has already
// been declared`.

import { join } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { buildTo, removeDir, startServer, tmpDir } from "../support/server.js";

const work = tmpDir("owners-");
const dirs: string[] = [work];
afterAll(() => dirs.forEach(removeDir));

describe("module `tasks` with resource `tasks` and an action's `sql { … }`", () => {
  test("the server loads; the record operation and the sql block each run", async () => {
    const out = await buildTo({ mode: "module", dir: join(repoRoot, "fixtures", "module-named-like-resource", "input") });
    dirs.push(out);
    const s = await startServer(out, ["--db", join(work, "tasks.db")]);
    try {
      for (const title of ["keep", "drop", "drop"]) {
        expect((await call(`${s.url}/api/tasks:add`, { json: { title } })).status).toBe(200);
      }
      const purged = await call(`${s.url}/api/tasks:purge`, { json: { title: "drop" } });
      expect(purged.status).toBe(200);
      const left = await call(`${s.url}/api/tasks:all`);
      expect(left.json.data).toEqual([{ id: expect.any(String), title: "keep" }]);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });
});
