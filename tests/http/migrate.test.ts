// At start the server creates missing tables, adds columns that are nullable or have a
// default, and refuses any other difference with a message naming table and column.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { buildTo, removeDir, startServer, tmpDir } from "../support/server.js";

const work = tmpDir("migrate-");
const db = join(work, "shared.db");
const dirs: string[] = [];

afterAll(() => {
  for (const d of dirs) removeDir(d);
  removeDir(work);
});

/** Build a one-module project whose `item` resource has the given fields. */
async function version(name: string, fields: string, withAdd = true): Promise<string> {
  const src = join(work, name);
  mkdirSync(src, { recursive: true });
  writeFileSync(
    join(src, "m.svc"),
    `module m\n\nresource item {\n  id: id\n${fields}\n}\n\nquery items() {\n  SELECT * FROM item ORDER BY id\n}\n${withAdd ? "\naction add(name: text) {\n  return insert item { name: name }\n}\n" : ""}`,
  );
  const out = await buildTo({ mode: "module", dir: src });
  dirs.push(out);
  return out;
}

describe("schema at start", () => {
  test("v1 creates the table; v2 adds nullable and defaulted columns and keeps the data", async () => {
    const v1 = await version("v1", "  name: text");
    let s = await startServer(v1, ["--db", db]);
    await call(`${s.url}/api/m:add`, { json: { name: "first" } });
    expect(await s.stop()).toBe(0);

    const v2 = await version("v2", "  name: text\n  note: text?\n  count: int = 7\n  index (name)");
    s = await startServer(v2, ["--db", db]);
    const r = await call(`${s.url}/api/m:items`);
    expect(r.json.data).toEqual([{ id: expect.any(String), name: "first", note: null, count: 7 }]);
    expect(await s.stop()).toBe(0);
  });

  test("a dropped column stops the server with a message naming table and column", async () => {
    const v3 = await version("v3", "  name: text\n  count: int = 7");
    await expect(startServer(v3, ["--db", db])).rejects.toThrow(/item.*note|note.*item/);
  });

  test("a retyped column stops the server too", async () => {
    const v4 = await version("v4", "  name: int\n  note: text?\n  count: int = 7", false);
    await expect(startServer(v4, ["--db", db])).rejects.toThrow(/item.*name|name.*item/);
  });

  test("a new required column without default stops the server", async () => {
    const v5 = await version("v5", "  name: text\n  note: text?\n  count: int = 7\n  owner: text", false);
    await expect(startServer(v5, ["--db", db])).rejects.toThrow(/owner/);
  });
});
