// Keys of every kind (docs/language.md §2.1, Keys) through a real server on SQLite, PostgreSQL
// and MariaDB: an `id(int)` identity (numbered by the database, or given by seed data), a
// natural text key, a composite key, UUID v7 and v4 keys, and the ULID default. Each runs
// insert, get, update, delete, a list, a 404 for a missing key and, where a key has a type
// a path can break, a 400 for a malformed one. Every backend answers what SQLite answers.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { removeDir } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { backendAvailable } from "./support/databases.js";
import { type Step, serversPerBackend } from "./support/transcript.js";

const available = { postgres: await backendAvailable("postgres"), mysql: await backendAvailable("mysql") };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

async function transcript(url: string): Promise<Step[]> {
  const steps: Step[] = [];
  const names = new Map<string, string>();
  // Made keys differ per run: each is named by its kind and order of appearance.
  const scrub = (text: string) =>
    text.replace(/"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9A-HJKMNP-TV-Z]{26})"/g, (_, id: string) => {
      if (!names.has(id)) names.set(id, `${id.length === 26 ? "ulid" : `uuid${id[14]}`}#${names.size + 1}`);
      return `"${names.get(id)}"`;
    });
  const record = async (step: string, path: string, json?: unknown) => {
    const r = await call(path.startsWith("/") ? `${url}${path}` : `${url}/api/keys:${path}`, json === undefined ? {} : { json });
    steps.push({ step, status: r.status, body: JSON.parse(scrub(r.text)) });
    return r.json as { data: Record<string, unknown> };
  };

  // id(int): numbered, seeded with explicit keys, then numbered past the seed.
  await record("world numbered", "new_world", { randomNumber: 5 });
  for (const id of [10, 11, 12]) await record(`world seeded ${id}`, "seed_world", { id, randomNumber: id * 2 });
  await record("world numbered after the seed", "new_world", { randomNumber: 6 });
  await record("world seeded with key 0", "seed_world", { id: 0, randomNumber: 1 });
  await record("world 0 deleted", "drop_world", { id: 0 });
  await record("world seeded twice", "seed_world", { id: 10, randomNumber: 0 });
  await record("world by path", "/worlds/11");
  await record("world by query", "world_by_id?id=12");
  await record("world updated", "set_world", { id: 12, randomNumber: 99 });
  await record("world deleted", "drop_world", { id: 1 });
  await record("world missing", "/worlds/1");
  await record("world malformed key", "/worlds/abc");
  await record("world key as text", "get_world", { id: "11" });
  await record("worlds", "list_worlds");

  // key (slug): given by the caller.
  await record("page inserted", "new_page", { slug: "hello", title: "Hello" });
  await record("page inserted again", "new_page", { slug: "hello", title: "Again" });
  await record("page 2 inserted", "new_page", { slug: "world", title: "World" });
  await record("page by path", "/pages/hello");
  await record("page updated", "set_page", { slug: "world", title: "Earth" });
  await record("page deleted", "drop_page", { slug: "hello" });
  await record("page missing", "/pages/hello");
  await record("pages", "list_pages");

  // key (follower, followee).
  await record("follow", "follow_user", { a: "ann", b: "bob" });
  await record("follow back", "follow_user", { a: "bob", b: "ann" });
  await record("follow twice", "follow_user", { a: "ann", b: "bob" });
  await record("follow by path", "/follows/ann/bob");
  await record("follow updated", "set_follow", { a: "bob", b: "ann", since: 7 });
  await record("unfollow", "unfollow", { a: "ann", b: "bob" });
  await record("follow missing", "/follows/ann/bob");
  await record("follows", "list_follows");

  // id(uuid7), id(uuid), id: made by the server.
  const kinds = [
    ["note", "note", "notes"],
    ["card", "card", "cards"],
  ] as const;
  for (const [kind, resource, path] of kinds) {
    const a = await record(`${kind} inserted`, `new_${resource}`, { body: "a" });
    await record(`${kind} 2 inserted`, `new_${resource}`, { body: "b" });
    const id = a.data.id as string;
    await record(`${kind} by path`, `/${path}/${id}`);
    await record(`${kind} updated`, `set_${resource}`, { id, body: "c" });
    await record(`${kind} deleted`, `drop_${resource}`, { id });
    await record(`${kind} missing`, `/${path}/${id}`);
    await record(`${kind} not a uuid`, `/${path}/abc`);
    await record(`${kind}s`, `list_${resource}s`);
  }
  const task = await record("task inserted", "new_task", { title: "t" });
  await record("task by path", `/tasks/${task.data.id as string}`);
  await record("task missing", "/tasks/01ARZ3NDEKTSV4RRFFQ69G5FAV");
  return steps;
}

let dir: string;
const servers = serversPerBackend(() => dir, "keys.db", "keys");

beforeAll(async () => {
  dir = await buildServer({ mode: "module", dir: join(repoRoot, "tests", "backends", "projects", "keys") }, "keys-");
});

afterAll(async () => {
  await servers.stopAll();
  removeDir(dir);
});

describe("keys of every kind on every backend", () => {
  let reference: Step[];
  let raw: Map<string, Step>;

  beforeAll(async () => {
    reference = await transcript(await servers.serve("sqlite"));
    raw = new Map(reference.map((s) => [s.step, s]));
  });

  const body = (step: string) => raw.get(step)!;

  test("sqlite: id(int) numbers rows, takes seed keys, and numbers past them", () => {
    expect(body("world numbered")).toEqual({ step: "world numbered", status: 200, body: { ok: true, data: { id: 1, randomNumber: 5 } } });
    expect(body("world seeded 12").body).toEqual({ ok: true, data: { id: 12, randomNumber: 24 } });
    expect(body("world numbered after the seed").body).toEqual({ ok: true, data: { id: 13, randomNumber: 6 } });
    expect(body("world seeded with key 0").body).toEqual({ ok: true, data: { id: 0, randomNumber: 1 } });
    expect(body("world 0 deleted").body).toEqual({ ok: true, data: { id: 0, randomNumber: 1 } });
    expect(body("world seeded twice")).toMatchObject({ status: 409, body: { ok: false, error: "world.id already exists" } });
    expect(body("world by path").body).toEqual({ ok: true, data: { id: 11, randomNumber: 22 } });
    expect(body("world by query").body).toEqual({ ok: true, data: { id: 12, randomNumber: 24 } });
    expect(body("world updated").body).toEqual({ ok: true, data: { id: 12, randomNumber: 99 } });
    expect(body("world deleted").body).toEqual({ ok: true, data: { id: 1, randomNumber: 5 } });
    expect(body("world missing")).toMatchObject({ status: 404, body: { ok: false, error: "no such world" } });
    expect(body("world malformed key")).toMatchObject({ status: 400, body: { ok: false, error: 'argument "id" must be an integer' } });
    expect(body("world key as text").status).toBe(400);
    expect((body("worlds").body as { data: { id: number }[] }).data.map((w) => w.id)).toEqual([10, 11, 12, 13]);
  });

  test("sqlite: a natural key and a composite key are the caller's, and unique", () => {
    expect(body("page inserted").body).toEqual({ ok: true, data: { slug: "hello", title: "Hello" } });
    expect(body("page inserted again")).toMatchObject({ status: 409, body: { ok: false, error: "page.slug already exists" } });
    expect(body("page by path").body).toEqual({ ok: true, data: { slug: "hello", title: "Hello" } });
    expect(body("page updated").body).toEqual({ ok: true, data: { slug: "world", title: "Earth" } });
    expect(body("page missing").status).toBe(404);
    expect(body("pages").body).toEqual({ ok: true, data: [{ slug: "world", title: "Earth" }] });
    expect(body("follow twice")).toMatchObject({ status: 409, body: { ok: false, error: "follow (follower, followee) already exists" } });
    expect(body("follow by path").body).toEqual({ ok: true, data: { follower: "ann", followee: "bob", since: 0 } });
    expect(body("follow updated").body).toEqual({ ok: true, data: { follower: "bob", followee: "ann", since: 7 } });
    expect(body("follow missing").status).toBe(404);
    expect(body("follows").body).toEqual({ ok: true, data: [{ follower: "bob", followee: "ann", since: 7 }] });
  });

  test("sqlite: made keys are UUID v7, UUID v4 and ULID, and a text key that names nothing is a 404", () => {
    expect(body("note inserted").body).toEqual({ ok: true, data: { id: "uuid7#1", body: "a" } });
    expect(body("note by path").body).toEqual({ ok: true, data: { id: "uuid7#1", body: "a" } });
    expect(body("note updated").body).toEqual({ ok: true, data: { id: "uuid7#1", body: "c" } });
    expect(body("note missing").status).toBe(404);
    expect(body("note not a uuid").status).toBe(404);
    expect(body("notes").body).toEqual({ ok: true, data: [{ id: "uuid7#2", body: "b" }] });
    expect(body("card inserted").body).toEqual({ ok: true, data: { id: "uuid4#3", body: "a" } });
    expect(body("card deleted").body).toEqual({ ok: true, data: { id: "uuid4#3", body: "c" } });
    expect(body("card missing").status).toBe(404);
    expect(body("task by path").body).toEqual({ ok: true, data: { id: "ulid#5", title: "t" } });
    expect(body("task missing").status).toBe(404);
  });

  test("the made keys have their kind's shape", async () => {
    const url = await servers.serve("sqlite");
    const note = (await call(`${url}/api/keys:new_note`, { json: { body: "x" } })).json as { data: { id: string } };
    const card = (await call(`${url}/api/keys:new_card`, { json: { body: "x" } })).json as { data: { id: string } };
    const task = (await call(`${url}/api/keys:new_task`, { json: { title: "x" } })).json as { data: { id: string } };
    expect(UUID.exec(note.data.id)?.[1]).toBe("7");
    expect(UUID.exec(card.data.id)?.[1]).toBe("4");
    expect(task.data.id).toMatch(ULID);
  });

  for (const backend of ["postgres", "mysql"] as const) {
    (available[backend] ? test : test.skip)(`${backend}: the same transcript as sqlite`, async () => {
      const steps = await transcript(await servers.serve(backend));
      expect(steps).toEqual(reference);
    });
  }
});
