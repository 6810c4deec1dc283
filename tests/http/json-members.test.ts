// Members of json arguments meeting builtins, operators, writes, query arguments and `sql`
// bindings (issue 15 part 10, issue 12 part 5): a wrong type is a 400 naming the member
// path, on a real server and database, and nothing is written.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

let dir: string;
let server: TestServer;
let api: string;

beforeAll(async () => {
  dir = await buildTo({ mode: "module", dir: join(repoRoot, "tests", "http", "projects", "jsondocs") });
  server = await startServer(dir, ["--db", join(dir, "docs.db")]);
  api = `${server.url}/api/jsondocs`;
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

const post = (name: string, doc: unknown) => call(`${api}:${name}`, { json: { doc } });

async function refused(name: string, doc: unknown, error: string): Promise<void> {
  const r = await post(name, doc);
  expect([r.status, r.json]).toEqual([400, { ok: false, error }]);
}

describe("json members", () => {
  test("right types work, and a json member written to a json field is stored as it came", async () => {
    const r = await post("add", { title: "  A  ", stars: 2, extra: { k: [1, "x", null] } });
    expect([r.status, r.json.data.title, r.json.data.stars, r.json.data.extra]).toEqual([200, "A", 2, { k: [1, "x", null] }]);
    const s = await post("shape", { word: "hi", n: 12, tag: "t" });
    expect(s.json.data).toEqual({ loud: "HI", size: 2, neg: -12, double: 24, big: true, tag: "#t", same: true });
    const found = await post("find", { title: "A" });
    expect(found.json.data.map((n: { title: string }) => n.title)).toEqual(["A"]);
  });

  test("trim, upper and len on a member that is not text: 400, not a TypeError", async () => {
    await refused("add", { title: 5 }, "doc.title must be text");
    await refused("add", { title: { a: 1 } }, "doc.title must be text");
    await refused("shape", { word: 7, n: 1, tag: "t" }, "doc.word must be text");
    await refused("shape", { word: "w", n: "1", tag: "t" }, "doc.n must be a number");
    await refused("shape", { word: "w", n: 1, tag: ["t"] }, "doc.tag must be text");
  });

  test("arithmetic on a member that is not a number, and writes of the wrong type, write nothing", async () => {
    await refused("add", { title: "B", stars: "2" }, "doc.stars must be a whole number between -(2^53-1) and 2^53-1");
    await refused("shape", { word: "w", n: null, tag: "t" }, "doc.n must be a number");
    await refused("add", { title: "B", stars: 1e308 }, "doc.stars must be a whole number between -(2^53-1) and 2^53-1");
    await refused("add", { title: "B", stars: 0.5 }, "doc.stars must be a whole number between -(2^53-1) and 2^53-1");
    const notes = await post("find", { title: "B" });
    expect(notes.json.data).toEqual([]);
  });

  test("query arguments, sql bindings and fail messages", async () => {
    await refused("find", { title: 1 }, "doc.title must be text");
    await refused("find", { title: [] }, "doc.title must be text");
    await refused("retitle", { title: { x: 1 } }, "doc.title must be text");
    expect((await post("retitle", { title: null })).status).toBe(200);
    await refused("complain", { reason: "because" }, "because");
    await refused("complain", { reason: 42 }, "doc.reason must be text");
  });

  test("a record key read from json", async () => {
    await refused("drop", { id: { a: 1 } }, "doc.id must be an id (a non-empty string of at most 64 characters)");
    await refused("drop", { id: 12 }, "doc.id must be an id (a non-empty string of at most 64 characters)");
    expect((await post("drop", { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" })).status).toBe(404);
  });

  test("a len of null or a missing member is 0, as for any null", async () => {
    const s = await post("shape", { n: 1, tag: "t" });
    expect(s.json.data).toMatchObject({ loud: null, size: 0 });
  });
});
