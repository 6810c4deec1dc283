// What openapi.yml states about Conduit's answers and the official collection does not
// check (issue 12 part 8), over real sockets against examples/conduit on SQLite: `author` is
// an object, `favorited`/`following` are booleans, `tagList` a list of strings, creates
// answer 201, errors have Conduit's shape with 422 for validation, 401 without a token,
// 403 for someone else's article, passwords are stored hashed and e-mails have no endpoint.

import { join } from "node:path";
import Database from "better-sqlite3";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call, type Answer } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type Conduit, startConduit } from "./support.js";

let conduit: Conduit;
let ada: string;
let bob: string;

function api(path: string, options: { method?: string; json?: unknown; token?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = options.token ? { authorization: `Token ${options.token}` } : {};
  return call(`${conduit.server.url}/api${path}`, { method: options.method, json: options.json, headers });
}

async function register(username: string): Promise<string> {
  const r = await api("/users", { json: { user: { username, email: `${username}@example.com`, password: "password1" } } });
  expect(r.status).toBe(201);
  return r.json.user.token;
}

beforeAll(async () => {
  conduit = await startConduit();
  ada = await register("ada");
  bob = await register("bob");
});

afterAll(async () => {
  expect(await conduit?.stop()).toBe(0);
});

describe("answers in Conduit's shapes", () => {
  test("register answers 201 with the user, its token and null bio and image", async () => {
    const r = await api("/users", { json: { user: { username: "cy", email: "CY@Example.com", password: "password1" } } });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ user: { email: "cy@example.com", token: expect.any(String), username: "cy", bio: null, image: null } });
    const me = await api("/user", { token: r.json.user.token });
    expect([me.status, me.json.user.username]).toEqual([200, "cy"]);
  });

  test("PUT /api/user changes only what it is given; a new password signs in, the old one no more", async () => {
    const r = await register("dee");
    const put = await api("/user", { method: "PUT", token: r, json: { user: { bio: "I write", image: "https://img.example/dee.png", password: "new password" } } });
    expect([put.status, put.json.user]).toEqual([
      200,
      { email: "dee@example.com", token: expect.any(String), username: "dee", bio: "I write", image: "https://img.example/dee.png" },
    ]);
    const old = await api("/users/login", { json: { user: { email: "dee@example.com", password: "password1" } } });
    expect(old.status).toBe(401);
    const now = await api("/users/login", { json: { user: { email: "dee@example.com", password: "new password" } } });
    expect([now.status, now.json.user.bio]).toEqual([200, "I write"]);
    const taken = await api("/user", { method: "PUT", token: r, json: { user: { email: "ada@example.com" } } });
    expect([taken.status, taken.json]).toEqual([422, { errors: { body: ["email has already been taken"] } }]);
    const short = await api("/user", { method: "PUT", token: r, json: { user: { bio: "kept?", password: "short" } } });
    expect(short.status).toBe(422);
    // The failed update rolled back whole: the bio written before the password check is gone.
    expect((await api("/profiles/dee")).json.profile.bio).toBe("I write");
  });

  test("an article: 201 with Location, author an object, booleans, tagList a sorted list of unique strings", async () => {
    const r = await api("/articles", {
      token: ada,
      json: { article: { title: "Crème Brûlée!", description: "d", body: "b", tagList: ["zebra", "apple", "zebra"] } },
    });
    expect(r.status).toBe(201);
    expect(r.headers.location).toBe(`${conduit.server.url}/api/articles/creme-brulee`);
    expect(r.json).toEqual({
      article: {
        slug: "creme-brulee",
        title: "Crème Brûlée!",
        description: "d",
        body: "b",
        tagList: ["apple", "zebra"],
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        favorited: false,
        favoritesCount: 0,
        author: { username: "ada", bio: null, image: null, following: false },
      },
    });
  });

  test("the same title again gets a slug of its own", async () => {
    const r = await api("/articles", { token: ada, json: { article: { title: "Crème brûlée", description: "d", body: "b" } } });
    expect(r.status).toBe(201);
    expect(r.json.article.slug).toMatch(/^creme-brulee-[0-9a-z]{26}$/);
    expect(r.json.article.tagList).toEqual([]);
  });

  test("favorited and following are true and false as the reader sees them", async () => {
    const fav = await api("/articles/creme-brulee/favorite", { method: "POST", token: bob });
    expect([fav.status, fav.json.article.favorited, fav.json.article.favoritesCount]).toEqual([200, true, 1]);
    const follow = await api("/profiles/ada/follow", { method: "POST", token: bob });
    expect([follow.status, follow.json]).toEqual([200, { profile: { username: "ada", bio: null, image: null, following: true } }]);

    const asBob = await api("/articles/creme-brulee", { token: bob });
    expect([asBob.json.article.favorited, asBob.json.article.author.following]).toEqual([true, true]);
    const anonymous = await api("/articles/creme-brulee");
    expect([anonymous.json.article.favorited, anonymous.json.article.author.following]).toEqual([false, false]);

    const feed = await api("/articles/feed", { token: bob });
    expect(feed.json.articlesCount).toBe(2);
    expect(feed.json.articles.map((a: { author: { following: boolean } }) => a.author.following)).toEqual([true, true]);
    const favorited = await api("/articles?favorited=bob");
    expect([favorited.json.articlesCount, favorited.json.articles[0].slug]).toEqual([1, "creme-brulee"]);
  });

  test("lists filter and page: articlesCount counts every match, limit and offset cut the page", async () => {
    const all = await api("/articles?author=ada&limit=1");
    expect([all.json.articlesCount, all.json.articles.length]).toEqual([2, 1]);
    const second = await api("/articles?author=ada&limit=1&offset=1");
    expect(second.json.articles[0].slug).not.toBe(all.json.articles[0].slug);
    const tagged = await api("/articles?tag=apple");
    expect([tagged.json.articlesCount, tagged.json.articles[0].tagList]).toEqual([1, ["apple", "zebra"]]);
    const tags = await api("/tags");
    expect(tags.json).toEqual({ tags: ["apple", "zebra"] });
  });

  test("comments: 200 with the comment and its author; deleting answers 204", async () => {
    const c = await api("/articles/creme-brulee/comments", { method: "POST", token: bob, json: { comment: { body: "Yum" } } });
    expect(c.status).toBe(200);
    expect(c.json.comment).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      body: "Yum",
      author: { username: "bob", bio: null, image: null, following: false },
    });
    const list = await api("/articles/creme-brulee/comments");
    expect(list.json.comments.map((x: { body: string }) => x.body)).toEqual(["Yum"]);
    const notHers = await api(`/articles/creme-brulee/comments/${c.json.comment.id}`, { method: "DELETE", token: ada });
    expect([notHers.status, notHers.json]).toEqual([403, { errors: { body: ["only the author may delete this comment"] } }]);
    const del = await api(`/articles/creme-brulee/comments/${c.json.comment.id}`, { method: "DELETE", token: bob });
    expect([del.status, del.text]).toEqual([204, ""]);
  });
});

describe("errors in Conduit's shape", () => {
  test("validation is 422 naming the member: missing, mistyped, unknown, blank, too short, taken", async () => {
    const cases: Array<[unknown, string]> = [
      [{ user: { username: "x", password: "password1" } }, "user.email is required"],
      [{ user: { username: "x", email: 5, password: "password1" } }, "user.email must be text"],
      [{ user: { username: "x", email: "x@x", password: "password1", admin: true } }, "user.admin is not a member of NewUser"],
      [{ user: { username: " ", email: "x@x", password: "password1" } }, "username can't be blank"],
      [{ user: { username: "x", email: "x@x", password: "short" } }, "password is too short (minimum is 8 characters)"],
      [{ user: { username: "ada", email: "x@x", password: "password1" } }, "username has already been taken"],
      [{ user: { username: "x", email: "ADA@example.com", password: "password1" } }, "email has already been taken"],
      [{}, 'argument "user" is required'],
    ];
    for (const [body, message] of cases) {
      const r = await api("/users", { json: body });
      expect([r.status, r.json]).toEqual([422, { errors: { body: [message] } }]);
    }
    const tags = await api("/articles", { token: ada, json: { article: { title: "T", description: "d", body: "b", tagList: ["a", 1] } } });
    expect([tags.status, tags.json]).toEqual([422, { errors: { body: ["article.tagList[1] must be text"] } }]);
    const limit = await api("/articles?limit=abc");
    expect(limit.status).toBe(422);
  });

  test("no token is 401 with a Token challenge; a wrong password (the action's own fail 401) is 401 with it too", async () => {
    for (const [method, path] of [["GET", "/user"], ["POST", "/articles"], ["GET", "/articles/feed"], ["POST", "/profiles/ada/follow"]]) {
      const r = await api(path, { method, json: method === "POST" ? {} : undefined });
      expect([r.status, r.headers["www-authenticate"], Object.keys(r.json)]).toEqual([401, "Token", ["errors"]]);
    }
    const login = await api("/users/login", { json: { user: { email: "ada@example.com", password: "wrong-password" } } });
    // RFC 9110 §15.5.2: every 401 names how to authenticate, in the app's error shape too.
    expect([login.status, login.headers["www-authenticate"], login.json]).toEqual([401, "Token", { errors: { body: ["email or password is invalid"] } }]);
    const ok = await api("/users/login", { json: { user: { email: "ada@example.com", password: "password1" } } });
    expect([ok.status, ok.json.user.username]).toEqual([200, "ada"]);
  });

  test("someone else's article is 403 and stays as it was; an unknown one is 404", async () => {
    const put = await api("/articles/creme-brulee", { method: "PUT", token: bob, json: { article: { body: "mine now" } } });
    expect([put.status, put.json]).toEqual([403, { errors: { body: ["only the author may change this article"] } }]);
    const del = await api("/articles/creme-brulee", { method: "DELETE", token: bob });
    expect(del.status).toBe(403);
    expect((await api("/articles/creme-brulee")).json.article.body).toBe("b");
    for (const path of ["/articles/nope", "/articles/nope/comments", "/profiles/nobody"]) {
      const r = await api(path);
      expect([r.status, Object.keys(r.json)]).toEqual([404, ["errors"]]);
    }
  });

  test("the author updates and deletes; the article's tags, favorites and comments go with it", async () => {
    const put = await api("/articles/creme-brulee", { method: "PUT", token: ada, json: { article: { body: "With two hands" } } });
    expect([put.status, put.json.article.body, put.json.article.slug]).toEqual([200, "With two hands", "creme-brulee"]);
    const del = await api("/articles/creme-brulee", { method: "DELETE", token: ada });
    expect([del.status, del.text]).toEqual([204, ""]);
    expect((await api("/articles/creme-brulee")).status).toBe(404);
    expect((await api("/tags")).json).toEqual({ tags: [] });
    expect((await api("/articles?favorited=bob")).json.articlesCount).toBe(0);
  });
});

describe("what stays inside", () => {
  test("passwords are stored as scrypt hashes; no endpoint answers e-mails by address", async () => {
    const db = new Database(join(conduit.dir, "conduit.db"), { readonly: true });
    try {
      const rows = db.prepare("SELECT password FROM account").all() as Array<{ password: string }>;
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.password).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    } finally {
      db.close();
    }
    const probe = await call(`${conduit.server.url}/api/conduit:account_by_email?email=ada@example.com`);
    expect(probe.status).toBe(404);
    const profile = await api("/profiles/ada");
    expect(Object.keys(profile.json.profile).sort()).toEqual(["bio", "following", "image", "username"]);
  });
});

describe("the generated server", () => {
  test("type-checks under tsc --strict, as docs/language.md §7 says every server.ts does", () => {
    const program = ts.createProgram([join(conduit.dir, "server.ts")], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2023.d.ts"],
      types: ["node"],
      typeRoots: [join(repoRoot, "node_modules", "@types")],
      skipLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const line = d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : 0;
      return `server.ts:${line} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(problems).toEqual([]);
  });
});
