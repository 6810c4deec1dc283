// The generated client (dist/client.js) driving real servers over 127.0.0.1: the task
// tracker through its endpoints, routes and route-file blocks, and examples/accounts with
// tokens (both scheme words) and role checks. Errors arrive as ApiError with status and message.

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { repoRoot } from "../support/paths.js";
import { buildTo, removeDir, startServer, type TestServer } from "../support/server.js";
import { SECRET, startAccounts, type Accounts } from "../auth/support.js";
import { startConduit, type Conduit } from "../conduit/support.js";

type Client = any;

async function clientModule(dir: string): Promise<{ Client: new (o: object) => Client; ApiError: new (...a: never[]) => Error }> {
  return import(pathToFileURL(join(dir, "client.js")).href);
}

async function rejection(p: Promise<unknown>): Promise<{ name: string; status: number; message: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { name: string; status: number; message: string };
    return { name: err.name, status: err.status, message: err.message };
  }
  throw new Error("the call did not fail");
}

describe("the task tracker through its generated client", () => {
  let dir: string;
  let server: TestServer;
  let api: Client;
  let mod: Awaited<ReturnType<typeof clientModule>>;

  beforeAll(async () => {
    dir = await buildTo({ mode: "project", dir: join(repoRoot, "examples", "task_tracker") });
    server = await startServer(dir, ["--db", join(dir, "tasks.db")]);
    mod = await clientModule(dir);
    api = new mod.Client({ baseUrl: server.url + "/", fetch });
  });

  afterAll(async () => {
    await server?.stop();
    if (dir) removeDir(dir);
  });

  test("endpoints: create, list with query arguments, get, start", async () => {
    const created = await api.createTask({ title: "  write docs ", priority: "high" });
    expect(created).toMatchObject({ title: "write docs", priority: "high", status: "open", description: null });
    await api.createTask({ title: "second" });
    const open = await api.listTasks({ status: "open", limit: 1 });
    expect(open).toHaveLength(1);
    expect(await api.listTasks()).toHaveLength(2);
    expect(await api.getTask({ id: created.id })).toEqual(created);
    expect(await api.getTask({ id: "no-such-task" })).toBeNull();
    const started = await api.startTask({ id: created.id, assignee: "ada" }, { idempotencyKey: "start-1" });
    expect(started).toMatchObject({ status: "in_progress", assignee: "ada" });
    // The same key and request: the first answer again, not a second run.
    expect(await api.startTask({ id: created.id, assignee: "ada" }, { idempotencyKey: "start-1" })).toEqual(started);
  });

  test("declared routes: path parameters in the URL, the rest in the body or query string", async () => {
    const created = await api.postV1Tasks({ title: "via route" });
    expect(await api.getV1TasksId({ id: created.id })).toEqual(created);
    expect((await api.postV1TasksIdStart({ id: created.id, assignee: "bo" })).status).toBe("in_progress");
    expect((await api.postV1TasksIdComplete({ id: created.id })).status).toBe("done");
    expect((await api.deleteV1TasksId({ id: created.id })).id).toBe(created.id);
    expect((await api.getV1TasksOpen({ limit: 10 })).every((t: { status: string }) => t.status === "open")).toBe(true);
  });

  test("route-file blocks: {records}, {result}, and a block chosen with ?handler=", async () => {
    const { result } = await api.postApiTaskTracker({ title: "from the route file" });
    expect(result.title).toBe("from the route file");
    const { records } = await api.getApiTaskTracker({ limit: 100 });
    expect(records.map((t: { id: string }) => t.id)).toContain(result.id);
    expect((await api.getApiTaskTrackerId({ id: result.id })).result).toEqual(result);
    const moved = await api.postApiTaskTrackerIdStartTask({ id: result.id, assignee: "cy" });
    expect(moved.result.status).toBe("in_progress");
  });

  test("errors are ApiError with the status and the envelope's message", async () => {
    expect(await rejection(api.startTask({ id: "missing", assignee: "x" }))).toEqual({ name: "ApiError", status: 404, message: "task not found" });
    expect(await rejection(api.createTask({ title: "   " }))).toEqual({ name: "ApiError", status: 400, message: "title is required" });
    // A fetch that finds nothing is the route file's 404.
    expect((await rejection(api.getApiTaskTrackerId({ id: "missing" }))).status).toBe(404);
    // An argument of the wrong type is refused by the server's validator, typed or not.
    const bad = await rejection(api.listTasks({ limit: "many" }));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("limit");
    const err = await api.getTask({}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(mod.ApiError);
  });
});

describe("examples/accounts through its generated client", () => {
  let accounts: Accounts;
  let mod: Awaited<ReturnType<typeof clientModule>>;

  beforeAll(async () => {
    accounts = await startAccounts();
    mod = await clientModule(accounts.dir);
  });

  afterAll(async () => {
    await accounts?.stop();
  });

  test("sign up, sign in, then call with the token under either scheme word; without one, 401", async () => {
    expect(SECRET.length).toBeGreaterThanOrEqual(32);
    const anonymous = new mod.Client({ baseUrl: accounts.server.url, fetch });
    const signedUp = await anonymous.signUp({ email: "Ada@Example.com", name: "Ada", password: "correct horse" });
    expect(signedUp).toEqual({ email: "ada@example.com", next: "sign in with this e-mail and password" });
    const { id, token } = await anonymous.signIn({ email: "ada@example.com", password: "correct horse" });
    expect(typeof token).toBe("string");
    expect(await rejection(anonymous.me())).toMatchObject({ name: "ApiError", status: 401 });
    expect(await anonymous.whoami()).toEqual({ signed_in: false, id: null, roles: null });

    const bearer = new mod.Client({ baseUrl: accounts.server.url, token, fetch });
    expect(await bearer.me()).toEqual({ id, email: "ada@example.com", name: "Ada", role: "member" });
    const word = new mod.Client({ baseUrl: accounts.server.url, token, scheme: "Token", fetch });
    const note = await word.addNote({ body: "hello" });
    expect(note).toMatchObject({ owner: id, body: "hello" });
    expect((await word.myNotes()).map((n: { id: string }) => n.id)).toEqual([note.id]);
    // A member is not an admin.
    expect(await rejection(word.countNotes())).toMatchObject({ name: "ApiError", status: 403 });
    // A second sign-up with the same e-mail answers as the first did, and changes nothing.
    expect(await anonymous.signUp({ email: "ada@example.com", name: "A", password: "another pass" })).toEqual(signedUp);
    expect(await rejection(anonymous.signIn({ email: "ada@example.com", password: "another pass" }))).toMatchObject({ status: 401 });
    // A token the server refuses.
    const forged = new mod.Client({ baseUrl: accounts.server.url, token: token.slice(0, -2) + "xx", fetch });
    expect((await rejection(forged.me())).status).toBe(401);
  });
});

describe("examples/conduit through its generated client: answers its routes shape", () => {
  let conduit: Conduit;
  let mod: Awaited<ReturnType<typeof clientModule>>;

  beforeAll(async () => {
    conduit = await startConduit();
    mod = await clientModule(conduit.dir);
  });

  afterAll(async () => {
    await conduit?.stop();
  });

  test("201 and 200 bodies without the envelope, a 204 as undefined, [errors] bodies as ApiError", async () => {
    const anonymous = new mod.Client({ baseUrl: conduit.server.url, fetch });
    const { user } = await anonymous.postApiUsers({ user: { username: "ada", email: "ada@example.com", password: "correct horse" } });
    expect(user).toMatchObject({ username: "ada", email: "ada@example.com", bio: null, image: null });
    const ada = new mod.Client({ baseUrl: conduit.server.url, token: user.token, scheme: "Token", fetch });
    const { article } = await ada.postApiArticles({ article: { title: "How to", description: "d", body: "b", tagList: ["x"] } });
    expect(article).toMatchObject({ title: "How to", tagList: ["x"], author: { username: "ada" } });
    expect((await anonymous.getApiArticlesSlug({ slug: article.slug })).article.slug).toBe(article.slug);
    const { articles, articlesCount } = await anonymous.getApiArticles({ author: "ada" });
    expect([articles.length, articlesCount]).toEqual([1, 1]);
    expect(await ada.deleteApiArticlesSlug({ slug: article.slug })).toBeUndefined();
    // Errors in Conduit's shape {"errors": {"body": ["…"]}}: the client reads the message there.
    const missing = await rejection(anonymous.getApiArticlesSlug({ slug: article.slug }));
    expect(missing).toEqual({ name: "ApiError", status: 404, message: "article not found" });
    const invalid = await rejection(anonymous.postApiUsers({ user: { username: "bo", password: "correct horse" } }));
    expect(invalid).toMatchObject({ name: "ApiError", status: 422 });
    expect(invalid.message).toContain("email");
    expect((await rejection(anonymous.getApiUser())).status).toBe(401);
  });
});
