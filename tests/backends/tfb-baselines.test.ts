// The TFB bench's baselines (bench/tfb/bare.ts and bench/tfb/fastify/server.ts) on a real
// PostgreSQL, each in a schema of its own seeded by bench/tfb/data.ts, pass all six of the
// TFB verifier's test types (bench/tfb/verify.ts), writes of /updates read back from the
// database. The seed itself is checked too: 10,000 worlds numbered 1..10000, 12 fortunes.

import { join } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { createSchema, dropSchema, FORTUNES, readWorld, schemaUrl, seedTfb, worldNumbers } from "../../bench/tfb/data.js";
import { formatResults, verifyTfb } from "../../bench/tfb/verify.js";
import { Resources } from "../../bench/resources.js";
import { startServer } from "../../bench/server-process.js";
import { outDir } from "./support/build.js";
import { backendAvailable, SERVER_URLS } from "./support/databases.js";

const available = await backendAvailable("postgres");
const resources = new Resources();
const schemas: string[] = [];

async function seededSchema(label: string): Promise<string> {
  const schema = `svc_t_tfb_${label}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  schemas.push(schema);
  await createSchema(SERVER_URLS.postgres, schema);
  const url = schemaUrl(SERVER_URLS.postgres, schema);
  await seedTfb(url);
  return url;
}

afterAll(async () => {
  await resources.release();
  for (const schema of schemas) await dropSchema(SERVER_URLS.postgres, schema);
});

(available ? describe : describe.skip)("TFB baselines on PostgreSQL", () => {
  test("the seed: 10,000 worlds as worldNumbers says, every number 1..10000; seeding again undoes changes", async () => {
    const url = await seededSchema("seed");
    const world = await readWorld(url);
    const numbers = worldNumbers();
    expect(world.size).toBe(10_000);
    expect([...world].every(([id, n]) => n === numbers[id - 1] && n >= 1 && n <= 10_000)).toBe(true);
    expect(new Set(numbers).size).toBeGreaterThan(5000);
    await seedTfb(url);
    expect(await readWorld(url)).toEqual(world);
    expect(FORTUNES).toHaveLength(12);
  });

  for (const [name, script] of [
    ["bare", join(outDir, "bench", "tfb", "bare.js")],
    ["fastify", join(outDir, "bench", "tfb", "fastify", "server.js")],
  ] as const) {
    test(`${name}: all six test types pass`, async () => {
      const url = await seededSchema(name);
      const server = await startServer({ name, args: [script, "--db", url, "--stop-with-stdin"], cwd: outDir, readyPath: "/json" }, resources);
      try {
        const results = await verifyTfb(server.baseUrl, { readWorld: () => readWorld(url), dateWaitMs: 1100 });
        expect(formatResults(results)).toBe(["json", "db", "queries", "fortunes", "updates", "plaintext"].map((t) => `PASS  ${t}`).join("\n"));
      } finally {
        await server.stop();
      }
    });
  }
});
