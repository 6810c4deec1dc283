// Names in SQL mean on PostgreSQL and MySQL/MariaDB what they mean on SQLite (issue 31,
// part 1; compiler/analyze/sql/identifiers.ts): a table named `user` (CURRENT_USER on
// PostgreSQL), a column named `rank` (reserved on MySQL 8), camelCase columns and aliases
// (folded to lower case on PostgreSQL), a name written in another case than declared, and
// JSON built under a camelCase alias, all written without quotes. Each backend answers
// SQLite's transcript key for key.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { repoRoot } from "../support/paths.js";
import { removeDir } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { backendAvailable } from "./support/databases.js";
import { type Step, Transcript, serversPerBackend } from "./support/transcript.js";

const available = { postgres: await backendAvailable("postgres"), mysql: await backendAvailable("mysql") };

async function transcript(url: string): Promise<Step[]> {
  const t = new Transcript(`${url}/api/names`, (text) => text.replace(/"20\d\d-[0-9T:.-]+Z"/g, '"<time>"'));
  const { record } = t;
  const ada = await record("add ada", "add", { name: "ada", randomNumber: 7, rank: 2 });
  const bob = await record("add bob", "add", { name: "bob", randomNumber: 3, rank: 1 });
  await record("tag ada", "tag_user", { user_id: ada.data.id, label: "x" });
  await record("tag ada again", "tag_user", { user_id: ada.data.id, label: "y" });
  await record("tag bob", "tag_user", { user_id: bob.data.id, label: "z" });
  await record("everyone", "everyone");
  await record("people", "people");
  await record("lucky", "lucky?n=4");
  await record("with tags", "with_tags");
  return t.steps;
}

let dir: string;
const servers = serversPerBackend(() => dir, "names.db", "names");

beforeAll(async () => {
  dir = await buildServer({ mode: "module", dir: join(repoRoot, "tests", "backends", "projects", "names", "names") });
});

afterAll(async () => {
  await servers.stopAll();
  removeDir(dir);
});

describe("names written without quotes answer alike on every backend", () => {
  let reference: Step[];

  beforeAll(async () => {
    reference = await transcript(await servers.serve("sqlite"));
  });

  test("sqlite: the keys are the names as declared or aliased", () => {
    const body = (step: string) => (reference.find((s) => s.step === step)!.body as { data: unknown }).data;
    expect(body("everyone")).toEqual([
      { id: "id2", name: "bob", rank: 1, randomNumber: 3, created_at: "<time>" },
      { id: "id1", name: "ada", rank: 2, randomNumber: 7, created_at: "<time>" },
    ]);
    // RANDOMNUMBER answers under its declared name, as SQLite names a bare column.
    expect(body("people")).toEqual([
      { id: "id2", displayName: "bob", randomNumber: 3, rank: 1, createdAt: "<time>" },
      { id: "id1", displayName: "ada", randomNumber: 7, rank: 2, createdAt: "<time>" },
    ]);
    expect(body("lucky")).toEqual([{ name: "ada", luckyNumber: 7 }]);
    expect(body("with tags")).toEqual([
      { name: "ada", tagList: ["x", "y"] },
      { name: "bob", tagList: ["z"] },
    ]);
  });

  for (const backend of ["postgres", "mysql"] as const) {
    (available[backend] ? test : test.skip)(`${backend}: the same transcript as sqlite`, async () => {
      const steps = await transcript(await servers.serve(backend));
      expect(steps).toEqual(reference);
    });
  }
});
