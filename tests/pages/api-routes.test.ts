// Every route of docs/service.md §4.6 (the task tracker's route files), called as a JSON client and
// as a browser form (urlencoded and multipart, with and without Unpoly's headers), plus
// block choice by ?handler= and the cross-site refusal of docs/language.md §5.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir } from "../support/server.js";
import { FORM, multipart, serveProject, urlencoded } from "./support.js";

let server: TestServer;
let out: string;
let api: string;

beforeAll(async () => {
  ({ out, server } = await serveProject(join(repoRoot, "examples", "task_tracker"), { GITHUB_WEBHOOK_SECRET: "test-secret" }));
  api = `${server.url}/api/task_tracker`;
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(out);
});

/** A form post as a same-origin page sends it. */
function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return call(url, { method: "POST", body: urlencoded(fields), headers: { "content-type": FORM, origin: server.url, ...headers } });
}

async function createJson(title: string, extra: Record<string, unknown> = {}) {
  const r = await call(api, { json: { title, ...extra } });
  expect(r.status).toBe(200);
  return r.json.data.result;
}

describe("GET /api/task_tracker", () => {
  test("runs list_tasks and answers the envelope with {records}, limit and offset from the query string", async () => {
    const a = await createJson("list a");
    const b = await createJson("list b");
    const r = await call(`${api}?limit=2`);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toMatch(/^application\/json/);
    expect(r.json.ok).toBe(true);
    expect(r.json.data.records.map((t: any) => t.id)).toEqual([b.id, a.id]);
    const next = await call(`${api}?limit=1&offset=1`);
    expect(next.json.data.records.map((t: any) => t.id)).toEqual([a.id]);
  });

  test("query-string values are coerced to the query's types: a bad one is a 400 naming it", async () => {
    const r = await call(`${api}?limit=many`);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ ok: false, error: 'argument "limit" must be an integer' });
  });
});

describe("POST /api/task_tracker", () => {
  test("JSON: invokes create_task and answers {result}; the redirect is for forms only", async () => {
    const r = await call(api, { json: { title: "from json", priority: "high", assignee: "ada" } });
    expect(r.status).toBe(200);
    expect(r.json.data.result).toMatchObject({ title: "from json", priority: "high", assignee: "ada", status: "open" });
    expect(r.headers.location).toBeUndefined();
  });

  test("JSON: a missing title is a 400 naming it; a blank one is the action's own failure", async () => {
    expect((await call(api, { json: {} })).json).toEqual({ ok: false, error: 'argument "title" is required' });
    const blank = await call(api, { json: { title: "  " } });
    expect(blank.status).toBe(400);
    expect(blank.json).toEqual({ ok: false, error: "title is required" });
  });

  test("urlencoded form: 303 to /tasks, and empty optional fields become null", async () => {
    const r = await postForm(api, { title: "from a form", priority: "low", assignee: "", description: "" });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe("/tasks");
    const list = await call(`${api}?limit=1`);
    expect(list.json.data.records[0]).toMatchObject({ title: "from a form", priority: "low", assignee: null, description: null });
  });

  test("multipart form: the same, from enctype=multipart/form-data", async () => {
    const m = multipart({ title: "multipart task", priority: "critical", assignee: "", description: "line one\nline two" });
    const r = await call(api, { method: "POST", body: m.body, headers: { "content-type": m.contentType, origin: server.url } });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe("/tasks");
    const list = await call(`${api}?limit=1`);
    expect(list.json.data.records[0]).toMatchObject({
      title: "multipart task",
      priority: "critical",
      assignee: null,
      description: "line one\nline two",
    });
  });

  test("a form post from Unpoly (X-Up-Version, X-Up-Target, no text/html in Accept) is still a form post", async () => {
    const r = await postForm(api, { title: "via unpoly", priority: "medium" }, { "x-up-version": "3.14.3", "x-up-target": "#task-list", accept: "*/*" });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe("/tasks");
  });

  test("a form body from a client that accepts only JSON gets the envelope", async () => {
    const r = await postForm(api, { title: "script with a form body" }, { accept: "application/json" });
    expect(r.status).toBe(200);
    expect(r.json.data.result.title).toBe("script with a form body");
  });

  test("a file field in a multipart form to a block that takes no file is a 415 naming it", async () => {
    const boundary = "b0undary";
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
    );
    const r = await call(api, {
      method: "POST",
      body,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, accept: "application/json", origin: server.url },
    });
    expect(r.status).toBe(415);
    expect(r.json.error).toBe('argument "title" is a file upload, and no file is taken there');
  });
});

describe("/api/task_tracker/:id", () => {
  test("GET fetches one task as {result}; an unknown id is a 404", async () => {
    const t = await createJson("fetch me");
    const r = await call(`${api}/${t.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, data: { result: t } });
    const missing = await call(`${api}/01ARZ3NDEKTSV4RRFFQ69G5FAV`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ ok: false, error: "not found" });
  });

  test("JSON: start_task, complete_task and delete_task by ?handler=, the id from the path", async () => {
    const t = await createJson("lifecycle json");
    const started = await call(`${api}/${t.id}?handler=start_task`, { json: { assignee: "grace" } });
    expect(started.status).toBe(200);
    expect(started.json.data.result).toMatchObject({ id: t.id, status: "in_progress", assignee: "grace" });
    const done = await call(`${api}/${t.id}?handler=complete_task`, { method: "POST", json: {} });
    expect(done.json.data.result.status).toBe("done");
    expect(typeof done.json.data.result.completed_at).toBe("string");
    const deleted = await call(`${api}/${t.id}?handler=delete_task`, { method: "POST", json: {} });
    expect(deleted.json.data.result.id).toBe(t.id);
    expect((await call(`${api}/${t.id}`)).status).toBe(404);
  });

  test("forms: each handler answers 303 to its redirect", async () => {
    const t = await createJson("lifecycle form");
    const started = await postForm(`${api}/${t.id}?handler=start_task`, { assignee: "linus" });
    expect(started.status).toBe(303);
    expect(started.headers.location).toBe(`/tasks/${t.id}`);
    expect((await call(`${api}/${t.id}`)).json.data.result).toMatchObject({ status: "in_progress", assignee: "linus" });

    // A form without fields: a browser still sends the urlencoded Content-Type with an empty body.
    const done = await postForm(`${api}/${t.id}?handler=complete_task`, {});
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`/tasks/${t.id}`);

    const m = multipart({});
    const deleted = await call(`${api}/${t.id}?handler=delete_task`, { method: "POST", body: m.body, headers: { "content-type": m.contentType, origin: server.url } });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.location).toBe("/tasks");
    expect((await call(`${api}/${t.id}`)).status).toBe(404);
  });

  test("Unpoly may post a form without fields with no body at all: still a form post", async () => {
    const t = await createJson("unpoly delete");
    const r = await call(`${api}/${t.id}?handler=delete_task`, { method: "POST", headers: { "x-up-version": "3.14.3", origin: server.url } });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe("/tasks");
  });

  test("JSON: a bad move is the action's 400; a failed form post is a 422 page", async () => {
    const t = await createJson("not started");
    const json = await call(`${api}/${t.id}?handler=complete_task`, { method: "POST", json: {} });
    expect(json.status).toBe(400);
    expect(json.json).toEqual({ ok: false, error: "only a task in progress can be completed" });
    const form = await postForm(`${api}/${t.id}?handler=complete_task`, {}, { referer: `${server.url}/tasks/${t.id}` });
    expect(form.status).toBe(422);
    expect(form.headers["content-type"]).toMatch(/^text\/html/);
    expect(form.text).toContain("only a task in progress can be completed");
  });

  test("without ?handler= the method's default block runs; when there is none, a 400 lists the handlers", async () => {
    const t = await createJson("no handler");
    const r = await call(`${api}/${t.id}`, { method: "POST", json: {} });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("POST /api/task_tracker/:id needs ?handler= with one of: start_task, complete_task, delete_task");
  });

  test("an unknown handler is a 404; a method without blocks is a 405 with Allow", async () => {
    const t = await createJson("odd requests");
    const unknown = await call(`${api}/${t.id}?handler=archive_task`, { method: "POST", json: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe('POST /api/task_tracker/:id has no handler "archive_task"');
    const put = await call(`${api}/${t.id}`, { method: "PUT", json: {} });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe("GET, POST");
  });

  test("an argument of the wrong type in JSON is the action's 400, naming it", async () => {
    const t = await createJson("typed");
    const r = await call(`${api}/${t.id}?handler=start_task`, { json: { assignee: 42 } });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('argument "assignee" must be a string');
  });
});

describe("cross-site requests (docs/language.md §3)", () => {
  test("Sec-Fetch-Site: cross-site is a 403 and changes nothing", async () => {
    const before = (await call(`${api}?limit=100`)).json.data.records.length;
    const r = await postForm(api, { title: "csrf" }, { "sec-fetch-site": "cross-site" });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ ok: false, error: "cross-site POST requests are not accepted" });
    expect((await call(`${api}?limit=100`)).json.data.records.length).toBe(before);
  });

  test("an Origin whose host is not the Host is a 403; the same origin passes", async () => {
    const evil = await postForm(api, { title: "csrf" }, { origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    const same = await postForm(api, { title: "same origin" }, { "sec-fetch-site": "same-origin" });
    expect(same.status).toBe(303);
  });

  test("the module's own endpoints refuse a cross-site form too", async () => {
    const t = await createJson("keep me");
    const r = await call(`${server.url}/api/task_tracker:delete_task`, {
      method: "POST",
      body: urlencoded({ id: t.id }),
      headers: { "content-type": FORM, origin: "https://attacker.example" },
    });
    expect(r.status).toBe(403);
    expect((await call(`${api}/${t.id}`)).status).toBe(200);
  });

  test("a JSON body from a foreign origin is refused too: the body's type proves nothing (tests/http/cross-site.test.ts)", async () => {
    const before = (await call(`${api}?limit=100`)).json.data.records.length;
    const r = await call(api, { json: { title: "json with a foreign origin" }, headers: { origin: "http://other.example" } });
    expect(r.status).toBe(403);
    expect((await call(`${api}?limit=100`)).json.data.records.length).toBe(before);
  });
});
