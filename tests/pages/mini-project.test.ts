// Pages and route files beyond the task tracker (tests/pages/projects/mini): the built-in
// layout, a root page without data, a loader on jq-web with $params, a compiled loader
// with $query, route blocks without a redirect (back to the Referer) and with one built
// from the result, a value from the query string inside a JSON call, a named GET block,
// a fixed path winning over a parameter, and a loader that gives no object.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir } from "../support/server.js";
import { FORM, serveProject, urlencoded } from "./support.js";

let server: TestServer;
let out: string;

beforeAll(async () => {
  ({ out, server } = await serveProject(join(repoRoot, "tests", "pages", "projects", "mini"), {
    MINI_TOKENS: "admin-token admin\nreader-token reader\n",
  }));
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(out);
});

const html = (path: string) => call(`${server.url}${path}`, { headers: { accept: "text/html" } });

async function addNote(title: string, rank?: number) {
  const r = await call(`${server.url}/api/notes${rank === undefined ? "" : `?rank=${rank}`}`, { json: { title } });
  expect(r.status).toBe(200);
  return r.json.data.result;
}

describe("layout and pages", () => {
  test("without layout.html the built-in layout loads Unpoly and wraps the page in up-main; titles are escaped once", async () => {
    const r = await html("/");
    expect(r.status).toBe(200);
    expect(r.text).toContain("<title>Start &amp; welcome</title>");
    expect(r.text).toMatch(/<main up-main>\s*<h1>Welcome<\/h1>/);
    expect(r.text.replaceAll("&#x2F;", "/")).toMatch(/<script src="\/_svc\/unpoly\/3\.[\d.]+\/unpoly\.min\.js"><\/script>/);
  });

  test("a fixed folder wins over a [param] folder at the same depth", async () => {
    const r = await html("/notes/new");
    expect(r.status).toBe(200);
    expect(r.text).toContain('<form method="post" action="/api/notes">');
  });

  test("a compiled loader sees $query; the page passes its query string to the route", async () => {
    await addNote("low", 1);
    await addNote("high", 9);
    const all = await html("/notes");
    expect(all.text).toMatch(/<p id="count">\d+ notes, limit default<\/p>/);
    const some = await html("/notes?limit=1&min_rank=5");
    expect(some.text).toContain('<p id="count">1 notes, limit 1</p>');
    expect(some.text).toContain("<li>high (9)</li>");
  });

  test("a loader outside the compiled subset runs on jq-web, with $params bound", async () => {
    const n = await addNote("Hello, World!");
    const r = await html(`/notes/${n.id}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain("<title>Note Hello, World!</title>");
    expect(r.text).toContain('<p id="slug">hello-world-</p>');
    expect(r.text).toContain(`<p id="param">${n.id}</p>`);
  });

  test("a loader that gives something other than one object is a logged 500 page", async () => {
    const r = await html("/broken");
    expect(r.status).toBe(500);
    expect(r.text).toContain("internal error");
    expect(r.text).not.toContain("page.jq");
    expect(server.output.some((l) => l.includes("page.jq must give one object for the template, but gave a list"))).toBe(true);
  });
});

describe("route files", () => {
  test("a redirect built from the result: the new note's page", async () => {
    const r = await call(`${server.url}/api/notes`, {
      method: "POST",
      body: urlencoded({ title: "made by a form" }),
      headers: { "content-type": FORM, origin: server.url },
    });
    expect(r.status).toBe(303);
    const location = String(r.headers.location);
    expect(location).toMatch(/^\/notes\/[0-9A-Z]{26}$/);
    expect((await html(location)).text).toContain('<h1 id="title">made by a form</h1>');
  });

  test("a query-string value inside a JSON call is text, coerced to the argument's type", async () => {
    const n = await addNote("ranked", 7);
    expect(n.rank).toBe(7);
    const bad = await call(`${server.url}/api/notes?rank=seven`, { json: { title: "x" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('argument "rank" must be an integer');
    // A JSON body value is JSON: a string for an int argument is refused, not coerced.
    const typed = await call(`${server.url}/api/notes/${n.id}?handler=rename`, { json: { title: 5 } });
    expect(typed.status).toBe(400);
  });

  test("a block without a redirect sends a form back to the page it came from", async () => {
    const n = await addNote("old name");
    const r = await call(`${server.url}/api/notes/${n.id}?handler=rename`, {
      method: "POST",
      body: urlencoded({ title: "new name" }),
      headers: { "content-type": FORM, origin: server.url, referer: `${server.url}/notes/${n.id}?from=list` },
    });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe(`/notes/${n.id}?from=list`);
    expect((await html(`/notes/${n.id}`)).text).toContain('<h1 id="title">new name</h1>');
  });

  test("a Referer from another site is not followed: the redirect falls back to /", async () => {
    const n = await addNote("elsewhere");
    const r = await call(`${server.url}/api/notes/${n.id}?handler=rename`, {
      method: "POST",
      body: urlencoded({ title: "renamed" }),
      headers: { "content-type": FORM, referer: "https://elsewhere.example/notes" },
    });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe("/");
  });

  test("a named GET block, chosen by ?handler=, with a literal argument", async () => {
    const r = await call(`${server.url}/api/notes?handler=top&min_rank=0`);
    expect(r.status).toBe(200);
    expect(r.json.data.records).toHaveLength(1);
  });

  test("the 422 page keeps the form's fields for the template", async () => {
    const n = await addNote("keep");
    const r = await call(`${server.url}/api/notes/${n.id}?handler=rename`, {
      method: "POST",
      body: urlencoded({ title: "" }),
      headers: { "content-type": FORM, referer: `${server.url}/notes/${n.id}` },
    });
    // Only a nullable argument turns an empty field into null; a required text stays "".
    expect(r.status).toBe(303);
    expect((await call(`${server.url}/api/notes/${n.id}`)).json.data.result.title).toBe("");
    const missing = await call(`${server.url}/api/notes/01ARZ3NDEKTSV4RRFFQ69G5FAV?handler=rename`, {
      method: "POST",
      body: urlencoded({ title: "typed <b>text</b>" }),
      headers: { "content-type": FORM, referer: `${server.url}/notes/${n.id}` },
    });
    expect(missing.status).toBe(422);
    expect(missing.text).toContain('<p class="error">note not found</p>');
    expect(missing.text).toContain('value="typed &lt;b&gt;text&lt;&#x2F;b&gt;"');
  });
});

describe("an action with requires, invoked by a route file", () => {
  test("is checked against the caller's bearer token: 401 without, 403 without the role, 200 with it", async () => {
    const url = `${server.url}/api/admin`;
    const none = await call(url, { method: "POST", json: {} });
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe("Bearer");
    const reader = await call(url, { method: "POST", json: {}, headers: { authorization: "Bearer reader-token" } });
    expect(reader.status).toBe(403);
    const admin = await call(url, { method: "POST", json: {}, headers: { authorization: "Bearer admin-token" } });
    expect(admin.status).toBe(200);
    expect(admin.json).toEqual({ ok: true, data: { result: null } });
  });
});
