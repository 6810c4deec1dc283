// Expressions a real app needs (issue 31 part 3a) on every backend: lists built in code that
// read and write one row per turn (the TechEmpower /queries and /updates), random_int within its
// bounds, SQL random() a float in [0, 1) everywhere, parse_int's edge cases written to an int
// column, and PATCH updates that leave absent fields alone and set null ones to NULL (including a
// timestamp, which MySQL reads from ISO text). Each backend's transcript is compared with SQLite's;
// what is random is checked on each backend, then blanked.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { removeDir } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { backendAvailable } from "./support/databases.js";
import { type Step, Transcript, serversPerBackend } from "./support/transcript.js";

const available = { postgres: await backendAvailable("postgres"), mysql: await backendAvailable("mysql") };
const WORLDS = 30;

interface World {
  id: string;
  randomNumber: number;
}

function checkWorlds(rows: World[], count: number): void {
  expect(rows).toHaveLength(count);
  for (const w of rows) {
    expect(Number(w.id) >= 1 && Number(w.id) <= WORLDS).toBe(true);
    expect(Number.isInteger(w.randomNumber) && w.randomNumber >= 1 && w.randomNumber <= 10000).toBe(true);
  }
}

async function transcript(url: string): Promise<Step[]> {
  const api = `${url}/api/expr`;
  const t = new Transcript(api, (text) =>
    text.replace(/"randomNumber":\d+/g, '"randomNumber":0').replace(/"id":"\d+"/g, '"id":"n"').replace(/"luck":[-0-9.e]+/g, '"luck":0'),
  );
  const { record } = t;
  expect((await record("seed", "seed", { n: WORLDS })).data).toBe(WORLDS);

  checkWorlds((await record("queries=5", "queries", { queries: "5", worlds: WORLDS })).data, 5);
  checkWorlds((await record("queries=foo", "queries", { queries: "foo", worlds: WORLDS })).data, 1);
  checkWorlds((await record("queries=501", "queries", { queries: "501", worlds: WORLDS })).data, 500);

  const updated: World[] = (await record("updates=20", "updates", { queries: "20", worlds: WORLDS })).data;
  checkWorlds(updated, 20);
  for (const [id, number] of new Map(updated.map((w) => [w.id, w.randomNumber]))) {
    const back = await call(`${api}:world_by_id?id=${id}`);
    expect(back.json.data).toEqual({ id, randomNumber: number });
  }
  const before = (await call(`${api}:world_by_id?id=1`)).json.data;
  await record("updates of a missing world roll back", "updates", { queries: "300", worlds: 10000 });
  expect((await call(`${api}:world_by_id?id=1`)).json.data).toEqual(before);

  for (let i = 0; i < 5; i++) {
    const lucky = await record(`lucky ${i}`, "lucky?id=2");
    expect(typeof lucky.data.luck === "number" && lucky.data.luck >= 0 && lucky.data.luck < 1).toBe(true);
  }

  await record("rolls", "rolls", { lo: -2, hi: 2, n: 1000 });
  await record("rolls, lo above hi", "rolls", { lo: 3, hi: 2, n: 1 });
  for (const s of ["42", " -7 ", "1.5", "1e3", "9007199254740991", "9007199254740992", "", "foo", "TRUE", null]) {
    await record(`parse ${JSON.stringify(s)}`, "parse", { s });
  }

  const todo = (await record("create todo", "create_todo", { title: "Write", order: 3, due: "2026-12-01T10:00:00Z" })).data;
  await record("patch: completed only", "patch_todo", { id: todo.id, completed: true });
  await record("patch: order and due null", "patch_todo", { id: todo.id, order: null, due: null });
  await record("patch: title, order, due", "patch_todo", { id: todo.id, title: "Wrote", order: 1, due: "2027-01-02T03:04:05.678+01:00" });
  await record("patch: nothing", "patch_todo", { id: todo.id });
  await record("patch: null title refused", "patch_todo", { id: todo.id, title: null, order: 9 });
  await record("patch: after the refusal", "patch_todo", { id: todo.id });
  await record("insert: absent is the default", "add_todo", { title: "a" });
  await record("patch via another action", "patch_via", { id: todo.id, order: 5 });
  await record("patch via, absent", "patch_via", { id: todo.id });
  const profile = (await record("create profile", "create_profile", { name: "ann", bio: "hi", image: "a.png" })).data;
  await record("profile: bio null", "update_profile", { id: profile.id, profile: { bio: null } });
  await record("profile: nothing", "update_profile", { id: profile.id, profile: {} });
  await record("profile: image", "update_profile", { id: profile.id, profile: { image: "b.png" } });
  return t.steps;
}

let dir: string;
const servers = serversPerBackend(() => dir, "expr.db", "expr");

beforeAll(async () => {
  dir = await buildServer({ mode: "module", dir: join(repoRoot, "tests", "http", "projects", "expr") }, "expr-");
});

afterAll(async () => {
  await servers.stopAll();
  removeDir(dir);
});

describe("expressions on every backend", () => {
  let reference: Step[];

  beforeAll(async () => {
    reference = await transcript(await servers.serve("sqlite"));
  });

  test("sqlite: the reference transcript", () => {
    const body = (step: string) => reference.find((s) => s.step === step)! as { status: number; body: any };
    expect(body("updates of a missing world roll back")).toMatchObject({ status: 404, body: { error: "no world" } });
    expect(body("rolls").body.data).toEqual({ n: 1000, outside: 0, bad_fractions: 0, seen_lo: true, seen_hi: true });
    expect(body("rolls, lo above hi")).toMatchObject({ status: 400, body: { error: "random_int(3, 2): the low bound is above the high one" } });
    expect(body('parse " -7 "').body.data).toEqual({ int: -7, stored: -7, float: -7, bool: null, count: 1 });
    expect(body('parse "9007199254740991"').body.data.stored).toBe(9007199254740991);
    expect(body('parse "9007199254740992"').body.data).toMatchObject({ int: null, stored: null });
    expect(body("patch: order and due null").body.data.todo).toMatchObject({ title: "Write", completed: true, order: null, due: null });
    expect(body("patch: title, order, due").body.data.todo).toMatchObject({ title: "Wrote", completed: true, order: 1, due: "2027-01-02T02:04:05.678Z" });
    expect(body("patch: nothing").body.data.todo).toEqual(body("patch: title, order, due").body.data.todo);
    expect(body("patch: null title refused").status).toBe(400);
    expect(body("patch: after the refusal").body.data.todo).toEqual(body("patch: nothing").body.data.todo);
    expect(body("insert: absent is the default").body.data.completed).toBe(false);
    expect(body("patch via, absent").body.data.todo.order).toBe(5);
    expect(body("profile: nothing").body.data).toMatchObject({ profile: { bio: null, image: "a.png" }, bio_given: false });
    expect(body("profile: image").body.data.profile).toMatchObject({ bio: null, image: "b.png" });
  });

  for (const backend of ["postgres", "mysql"] as const) {
    (available[backend] ? test : test.skip)(`${backend}: the same transcript as sqlite`, async () => {
      const steps = await transcript(await servers.serve(backend));
      expect(steps).toEqual(reference);
    });
  }
});
