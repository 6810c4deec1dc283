// The same project gives the same JSON on every backend (issue 5, part 2): one row of
// every column type written, read back, aggregated, filtered, changed and deleted, and
// the constraint errors, each transcript compared with SQLite's.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { repoRoot } from "../support/paths.js";
import { removeDir } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { backendAvailable } from "./support/databases.js";
import { type Step, Transcript, serversPerBackend } from "./support/transcript.js";

const available = { postgres: await backendAvailable("postgres"), mysql: await backendAvailable("mysql") };

/** Every call of the script, with each id replaced by its order of appearance (ids are random). */
async function transcript(url: string): Promise<Step[]> {
  const t = new Transcript(`${url}/api/kinds`);
  const { record } = t;
  const a = await record("add alpha", "add", {
    name: "alpha",
    qty: 3,
    ratio: 0.25,
    flag: true,
    meta: { b: [1, 2, { c: null }], a: "x", n: 1.5 },
    tier: "gold",
    at: "2024-05-01T12:00:00.123Z",
  });
  const b = await record("add beta", "add", {
    name: "beta",
    note: "a note",
    qty: Number.MAX_SAFE_INTEGER,
    ratio: 0.75,
    // A JSON string that looks like a number must come back as the string.
    meta: "123",
    tier: "silver",
    at: "2024-05-01T12:00:00Z",
  });
  const c = await record("add gamma", "add", { name: "gamma", qty: -7, at: "2024-04-30T23:59:59.999+02:00" });
  await record("things", "things");
  await record("stats", "stats");
  await record("flagged true", "flagged?flag=true");
  await record("flagged false", "flagged?flag=false");
  await record("since", "since?t=2024-05-01T00:00:00Z&n=5");
  await record("tag alpha b", "tag", { thing: a.data.id, tag: "b" });
  await record("tag alpha a", "tag", { thing: a.data.id, tag: "a" });
  await record("tag beta a", "tag", { thing: b.data.id, tag: "a" });
  await record("views", "views?tag=a");
  await record("tag index", "tag_index");
  await record("tag pair", "tag_pair", { thing: b.data.id, first: "c", second: "d" });
  await record("tag pair, second taken", "tag_pair", { thing: b.data.id, first: "e", second: "a" });
  await record("tag pair, first taken", "tag_pair", { thing: b.data.id, first: "a", second: "f" });
  await record("tag index after pairs", "tag_index");
  await record("relabel beta", "relabel", { id: b.data.id });
  await record("relabel gamma", "relabel", { id: c.data.id, labels: ["x", { y: null }] });
  await record("words", "words", { title: "Crème Brûlée à la carte!", prefix: "Crème" });
  await record("finish alpha", "finish", { id: a.data.id, done_at: "2024-06-01T00:00:00.5Z" });
  await record("duplicate name", "add", { name: "alpha", at: "2024-05-02T00:00:00Z" });
  await record("null name", "clear_name", { id: a.data.id });
  await record("tier outside the enum", "set_tier", { id: a.data.id, tier: "platinum" });
  await record("remove beta", "remove", { id: b.data.id });
  await record("remove beta again", "remove", { id: b.data.id });
  // Members of a json argument, written to typed fields (issue 15 part 10): a wrong type is
  // the same 400 everywhere, never a value stored in whatever form a driver makes of it.
  const doc = { name: "Delta", note: "n", qty: 5, ratio: 2, flag: false, meta: { x: [1] }, tier: "silver", at: "2024-05-03T00:00:00Z" };
  await record("add from json", "add_from", { doc });
  await record("json number to text", "add_from", { doc: { ...doc, name: "Eps", note: 5 } });
  await record("json object to text", "add_from", { doc: { ...doc, name: { a: 1 } } });
  await record("json fraction to int", "add_from", { doc: { ...doc, name: "Eps", qty: 1.5 } });
  await record("json huge int", "add_from", { doc: { ...doc, name: "Eps", qty: 2 ** 60 } });
  await record("json string to bool", "add_from", { doc: { ...doc, name: "Eps", flag: "true" } });
  await record("json number to enum", "add_from", { doc: { ...doc, name: "Eps", tier: 5 } });
  await record("json number to timestamp", "add_from", { doc: { ...doc, name: "Eps", at: 0 } });
  await record("things at the end", "things");
  return t.steps;
}

let dir: string;
const servers = serversPerBackend(() => dir, "kinds.db", "same_json");

beforeAll(async () => {
  dir = await buildServer({ mode: "module", dir: join(repoRoot, "tests", "backends", "projects", "kinds", "kinds") });
});

afterAll(async () => {
  await servers.stopAll();
  removeDir(dir);
});

describe("the same JSON out of every backend", () => {
  let reference: Step[];

  beforeAll(async () => {
    reference = await transcript(await servers.serve("sqlite"));
  });

  test("sqlite: the reference transcript has every type as JSON wants it", () => {
    const things = reference.find((s) => s.step === "things")!.body as { data: Record<string, unknown>[] };
    expect(things.data[0]).toEqual({
      id: "id1",
      name: "alpha",
      note: null,
      qty: 3,
      ratio: 0.25,
      flag: true,
      meta: { b: [1, 2, { c: null }], a: "x", n: 1.5 },
      tier: "gold",
      at: "2024-05-01T12:00:00.123Z",
      done_at: null,
      labels: [],
    });
    expect(things.data.map((t) => t.meta)).toEqual([{ b: [1, 2, { c: null }], a: "x", n: 1.5 }, "123", null]);
    expect(things.data.map((t) => t.at)).toEqual([
      "2024-05-01T12:00:00.123Z",
      "2024-05-01T12:00:00.000Z",
      "2024-04-30T21:59:59.999Z",
    ]);
    expect(reference.find((s) => s.step === "stats")!.body).toEqual({
      ok: true,
      data: [{ n: 3, total: Number.MAX_SAFE_INTEGER - 4, mean: 0.5, latest: "2024-05-01T12:00:00.123Z" }],
    });
    expect(reference.find((s) => s.step === "views")!.body).toEqual({
      ok: true,
      data: [
        {
          name: "alpha",
          tags: ["a", "b"],
          summary: { name: "alpha", note: null, qty: 3, tags: 2 },
          tagged: true,
          tag_count: 2,
          positive: true,
          noted: false,
          card: { name: "alpha", tags: ["a", "b"], tagged: true, flag: true, big: false, at: "2024-05-01T12:00:00.123Z", done_at: null },
        },
        {
          name: "beta",
          tags: ["a"],
          summary: { name: "beta", note: "a note", qty: Number.MAX_SAFE_INTEGER, tags: 1 },
          tagged: true,
          tag_count: 1,
          positive: true,
          noted: true,
          card: { name: "beta", tags: ["a"], tagged: true, flag: false, big: true, at: "2024-05-01T12:00:00.000Z", done_at: null },
        },
        { name: "gamma", tags: [], summary: { name: "gamma", note: null, qty: -7, tags: 0 }, tagged: false, tag_count: 0, positive: false, noted: false, card: { name: "gamma", tags: [], tagged: false, flag: false, big: false, at: "2024-04-30T21:59:59.999Z", done_at: null } },
      ],
    });
    expect(reference.find((s) => s.step === "tag index")!.body).toEqual({
      ok: true,
      data: [
        {
          tag: "a",
          names: ["alpha", "beta"],
          n: 2,
          things: [
            { name: "alpha", qty: 3 },
            { name: "beta", qty: Number.MAX_SAFE_INTEGER },
          ],
          flags: [true, false],
        },
        { tag: "b", names: ["alpha"], n: 1, things: [{ name: "alpha", qty: 3 }], flags: [true] },
      ],
    });
    expect(reference.find((s) => s.step === "relabel beta")!.body).toMatchObject({ data: { labels: { by: "default", list: [] } } });
    expect(reference.find((s) => s.step === "relabel gamma")!.body).toMatchObject({ data: { labels: ["x", { y: null }] } });
    expect(reference.find((s) => s.step === "words")!.body).toEqual({
      ok: true,
      data: {
        slug: "creme-brulee-a-la-carte",
        starts: true,
        ends: true,
        has_space: true,
        short: "Crème",
        dashed: "Crème-Brûlée-à-la-carte!",
        joined: "a/Crème Brûlée à la carte!",
      },
    });
    // The pair whose second insert fails leaves no first tag behind: one transaction.
    expect(reference.find((s) => s.step === "tag pair")!.body).toEqual({ ok: true, data: { first: "c", second: "d" } });
    expect((reference.find((s) => s.step === "tag index after pairs")!.body as { data: { tag: string }[] }).data.map((r) => r.tag)).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
    const errors = reference
      .filter((s) => s.status >= 400)
      .map((s) => [s.step, s.status, (s.body as { error: string }).error]);
    expect(errors).toEqual([
      ["tag pair, second taken", 409, "thing_tag (thing, tag) already exists"],
      ["tag pair, first taken", 409, "thing_tag (thing, tag) already exists"],
      ["duplicate name", 409, "thing.name already exists"],
      ["null name", 400, "thing.name is required"],
      ["tier outside the enum", 400, "check tier failed"],
      ["remove beta again", 404, "no such thing"],
      ["json number to text", 400, "doc.note must be text"],
      ["json object to text", 400, "doc.name must be text"],
      ["json fraction to int", 400, "doc.qty must be a whole number between -(2^53-1) and 2^53-1"],
      ["json huge int", 400, "doc.qty must be a whole number between -(2^53-1) and 2^53-1"],
      ["json string to bool", 400, "doc.flag must be true or false"],
      ["json number to enum", 400, "thing.tier must be one of bronze, silver, gold"],
      ["json number to timestamp", 400, "doc.at must be an ISO-8601 timestamp such as 2024-05-01T12:00:00Z"],
    ]);
    expect(reference.find((s) => s.step === "add from json")!.body).toMatchObject({
      ok: true,
      data: { name: "delta", note: "n", qty: 5, ratio: 2, flag: false, meta: { x: [1] }, tier: "silver" },
    });
  });

  for (const backend of ["postgres", "mysql"] as const) {
    (available[backend] ? test : test.skip)(`${backend}: the same transcript as sqlite`, async () => {
      const steps = await transcript(await servers.serve(backend));
      expect(steps).toEqual(reference);
    });
  }
});
