// examples/techempower, svc's TechEmpower app written the natural way (int keys, a collecting
// `for`, random_int, parse_int, `transaction none`, `respond text`, a page for /fortunes), on
// a real PostgreSQL: TFB's verifier (bench/tfb/verify.ts) passes all six test types, the
// writes of /updates read back from the database. The server makes its own tables in an
// empty schema at start, then bench/tfb/data.ts seeds them as TFB's database is seeded.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { createSchema, dropSchema, readWorld, schemaUrl, seedTfb } from "../../bench/tfb/data.js";
import { formatResults, verifyTfb } from "../../bench/tfb/verify.js";
import { Resources } from "../../bench/resources.js";
import { startServer } from "../../bench/server-process.js";
import { repoRoot } from "../support/paths.js";
import { buildServer } from "./support/build.js";
import { backendAvailable, SERVER_URLS } from "./support/databases.js";

const available = await backendAvailable("postgres");
const resources = new Resources();
const schema = `svc_t_te_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
let dir = "";

beforeAll(async () => {
  if (!available) return;
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "examples", "techempower") }, "te-");
  await createSchema(SERVER_URLS.postgres, schema);
}, 120_000);

afterAll(async () => {
  await resources.release();
  if (available) await dropSchema(SERVER_URLS.postgres, schema);
});

(available ? describe : describe.skip)("examples/techempower on PostgreSQL", () => {
  test("TFB's verifier: all six test types pass", async () => {
    const url = schemaUrl(SERVER_URLS.postgres, schema);
    const server = await startServer(
      { name: "svc", args: [join(dir, "server.js"), "--db", url, "--log-level", "error"], cwd: dir, readyPath: "/json" },
      resources,
    );
    try {
      await seedTfb(url);
      const results = await verifyTfb(server.baseUrl, { readWorld: () => readWorld(url), dateWaitMs: 1100 });
      expect(formatResults(results)).toBe(["json", "db", "queries", "fortunes", "updates", "plaintext"].map((t) => `PASS  ${t}`).join("\n"));
      // The Server header TFB asks for comes from svc.toml's [server] header.
      const res = await fetch(`${server.baseUrl}/plaintext`);
      expect(res.headers.get("server")).toBe("svc");
      expect(await res.text()).toBe("Hello, World!");
    } finally {
      await server.stop();
    }
  }, 120_000);
});
