// Lists and typed request bodies on a real server and database (issue 12 parts 4 and 5,
// docs/language.md §2.3 Lists, §2.5 Record types): a wrong value is a 400 naming its path,
// before anything runs; a loop of inserts is one transaction; a list binds in SQL.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

let dir: string;
let server: TestServer;
let api: string;

beforeAll(async () => {
  dir = await buildTo({ mode: "module", dir: join(repoRoot, "tests", "http", "projects", "blog") });
  server = await startServer(dir, ["--db", join(dir, "blog.db")]);
  api = `${server.url}/api/blog`;
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

const post = (name: string, json: unknown) => call(`${api}:${name}`, { json });

async function refused(name: string, args: unknown, error: string): Promise<void> {
  const r = await post(name, args);
  expect([r.status, r.json]).toEqual([400, { ok: false, error }]);
}

const user = (u: Record<string, unknown>) => ({ user: { username: "ann", email: "ann@example.com", password: "pw", ...u } });

describe("typed request bodies", () => {
  test("a body of the declared type: members typed, optional ones null, defaults filled", async () => {
    const r = await post("register", user({ email: "Ann@Example.com", address: { city: "Oslo" } }));
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ person: { username: "ann", email: "ann@example.com", bio: null, age: null }, role: "reader", city: "Oslo" });
    const nowhere = await post("register", user({ username: "bob", bio: null, role: "writer", address: null }));
    expect(nowhere.json.data).toMatchObject({ role: "writer", city: "nowhere", person: { bio: null } });
  });

  test("the issue's three: trim on a number, an object to a text field, a number to a text field", async () => {
    // `trim(user.username)` and `insert person { username: user.username }`: refused at the edge, never reaching either.
    await refused("register", user({ username: 5 }), "user.username must be text");
    await refused("register", user({ username: { a: 1 } }), "user.username must be text");
    await refused("register", user({ email: 5.0 }), "user.email must be text");
    await refused("register", user({ bio: 12 }), "user.bio must be text");
  });

  test("missing, unknown and ill-typed members name their path, nested ones too", async () => {
    await refused("register", { user: { email: "a", password: "p" } }, "user.username is required");
    await refused("register", user({ nickname: "x" }), "user.nickname is not a member of NewUser");
    await refused("register", user({ a: 1, b: 2 }), "user.a, user.b are not members of NewUser");
    await refused("register", user({ age: 1.5 }), "user.age must be a whole number between -(2^53-1) and 2^53-1");
    await refused("register", user({ role: "boss" }), "user.role must be one of: reader, writer");
    await refused("register", user({ address: { city: 3 } }), "user.address.city must be text");
    await refused("register", user({ address: {} }), "user.address.city is required");
    await refused("register", user({ address: [] }), "user.address must be an object (Address)");
    await refused("register", { user: "ann" }, "user must be an object (NewUser)");
    await refused("register", { user: null }, "user must be an object (NewUser)");
    await refused("register", {}, 'argument "user" is required');
  });

  test("nothing refused was written", async () => {
    const people = await call(`${api}:people`);
    expect(people.json.data.map((p: { username: string }) => p.username)).toEqual(["ann", "bob"]);
  });

  test("a record argument in a form or a query string is JSON text", async () => {
    const form = new URLSearchParams({ user: JSON.stringify({ username: "cy", email: "c@x", password: "p" }) });
    const r = await call(`${api}:register`, { body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect([r.status, r.json.data?.person?.username]).toEqual([200, "cy"]);
    const bad = await call(`${api}:register`, { body: "user=%7Bnope", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect([bad.status, bad.json.error]).toEqual([400, 'argument "user" must be JSON']);
  });
});

describe("lists", () => {
  const article = (tagList: unknown, title = "T") => ({ author: "ann", article: { title, body: "B", tagList } });

  test("a loop inserts one row per tag; builtins see the list", async () => {
    const r = await post("create_article", article(["go", "js", "go"]));
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ article: { title: "T", tag_list: ["go", "js"] }, tags: 2, joined: "go,js,go", has_go: true });
    const tagged = await call(`${api}:articles_tagged?tags=${encodeURIComponent('["js","rust"]')}`);
    expect(tagged.json.data.map((a: { id: string }) => a.id)).toEqual([r.json.data.article.id]);
  });

  test("item types, the bound and the list itself are checked, naming the index", async () => {
    await refused("create_article", article(["go", "js", "rust", 4]), "article.tagList[3] must be text");
    await refused("create_article", article("go"), "article.tagList must be a list");
    await refused("create_article", article(Array.from({ length: 11 }, (_, i) => `t${i}`)), "article.tagList has 11 items; at most 10 are allowed");
    await refused("count_tags", { numbers: [1, 2, 3, 4, 5, 6] }, "numbers has 6 items; at most 5 are allowed");
    await refused("count_tags", { tags: { a: 1 } }, "tags must be a list");
    await refused("count_tags", { tags: ["a", null] }, "tags[1] must be text");
    const absent = await post("count_tags", {});
    expect(absent.json.data).toEqual({ n: 0, numbers: null });
  });

  test("the default bound is 100 items", async () => {
    expect((await post("count_tags", { tags: Array.from({ length: 100 }, () => "x") })).json.data.n).toBe(100);
    await refused("count_tags", { tags: Array.from({ length: 101 }, () => "x") }, "tags has 101 items; at most 100 are allowed");
  });

  test("a fail inside the loop rolls back every insert of the action", async () => {
    const r = await post("create_article", article(["fine", " "], "Rolled back"));
    expect([r.status, r.json.error]).toEqual([422, "a tag may not be blank"]);
    const tagged = await call(`${api}:articles_tagged?tags=${encodeURIComponent('["fine"]')}`);
    expect(tagged.json.data).toEqual([]);
    const mine = await call(`${api}:articles_by?author=ann`);
    expect(mine.json.data.map((a: { title: string }) => a.title)).toEqual(["T"]);
  });

  test("a loop over ids with a lookup; a list literal bound in SQL", async () => {
    const first = (await call(`${api}:articles_by?author=ann`)).json.data[0].id;
    const r = await post("tag_all", { ids: [first], name: "picked" });
    expect(r.json.data.map((a: { id: string }) => a.id)).toEqual([first]);
    const missing = await post("tag_all", { ids: [first, "01ARZ3NDEKTSV4RRFFQ69G5FAV"], name: "lost" });
    expect([missing.status, missing.json.error]).toEqual([404, "no article 01ARZ3NDEKTSV4RRFFQ69G5FAV"]);
    expect((await call(`${api}:articles_tagged?tags=${encodeURIComponent('["lost"]')}`)).json.data).toEqual([]);
    await refused("tag_all", { ids: ["a", "b", "c", "d"], name: "x" }, "ids has 4 items; at most 3 are allowed");
    await refused("tag_all", { ids: ["a", ""], name: "x" }, "ids[1] must be an id (a non-empty string of at most 64 characters)");
  });

  test("a list in a query string must be JSON", async () => {
    const r = await call(`${api}:articles_tagged?tags=go`);
    expect([r.status, r.json.error]).toEqual([400, 'argument "tags" must be JSON']);
    const twice = await call(`${api}:articles_tagged?tags=a&tags=b`);
    expect(twice.status).toBe(400);
  });

  test("a list read from json: walked, joined, its items checked where a typed slot takes them", async () => {
    expect((await post("walk", { doc: { items: ["a", "b"] } })).json.data).toBe("a+b");
    expect((await post("walk", { doc: {} })).json.data).toBe("");
    await refused("walk", { doc: { items: "a" } }, "doc.items must be a list");
    await refused("walk", { doc: { items: ["a", 1] } }, "doc.items[] must be text");
  });
});
