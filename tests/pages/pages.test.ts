// The task tracker's pages (docs/service.md §4.7) served for real: the HTML they render, the
// headers every HTML answer carries, escaping, the 422 re-render of a failed form, the
// Unpoly protocol headers, and the files the server serves itself (public/, Unpoly).

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir } from "../support/server.js";
import { FORM, serveProject, urlencoded } from "./support.js";

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

async function create(title: string, extra: Record<string, unknown> = {}) {
  const r = await call(api, { json: { title, ...extra } });
  expect(r.status).toBe(200);
  return r.json.data.result;
}

const page = (path: string, headers: Record<string, string> = {}) => call(`${server.url}${path}`, { headers: { accept: "text/html", ...headers } });

/** The markup between `<tr>` and `</tr>` of the list row that links to `id`. */
function rowOf(html: string, id: string): string {
  const at = html.indexOf(`href="/tasks/${id}"`);
  expect(at).toBeGreaterThan(-1);
  return html.slice(html.lastIndexOf("<tr>", at), html.indexOf("</tr>", at));
}

function expectHtmlHeaders(headers: Record<string, string | string[] | undefined>): void {
  expect(headers["content-type"]).toBe("text/html; charset=utf-8");
  const csp = String(headers["content-security-policy"]);
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["referrer-policy"]).toBe("same-origin");
  expect(headers.vary).toBe("X-Up-Target");
}

describe("/tasks", () => {
  test("renders the list in the layout: title, Unpoly, up-main, up-nav, security headers", async () => {
    const r = await page("/tasks");
    expect(r.status).toBe(200);
    expectHtmlHeaders(r.headers);
    expect(r.text).toMatch(/^<!doctype html>/);
    expect(r.text).toContain("<title>Tasks · Task tracker</title>");
    expect(r.text).toMatch(/<main up-main[^>]*>/);
    expect(r.text).toMatch(/<nav up-nav[^>]*>/);
    const script = /<script src="([^"]+)"><\/script>/.exec(r.text.replaceAll("&#x2F;", "/"));
    expect(script?.[1]).toMatch(/^\/_svc\/unpoly\/3\.\d+\.\d+\/unpoly\.min\.js$/);
  });

  test("the create form: posts to /api/task_tracker, updates only #task-list, fields as §4.7 lists them", async () => {
    const html = (await page("/tasks")).text;
    const form = html.slice(html.indexOf('<form id="create-task"'), html.indexOf("</form>"));
    expect(form).toContain('method="post"');
    expect(form).toContain('action="/api/task_tracker"');
    expect(form).toContain("up-submit");
    expect(form).toContain('up-target="#task-list"');
    expect(html).toContain('<section id="task-list"');
    expect(form).toMatch(/<input name="title" required/);
    const options = [...form.matchAll(/<option value="(\w+)"( selected)?>/g)].map((m) => m[1] + (m[2] ?? ""));
    expect(options).toEqual(["medium selected", "low", "high", "critical"]);
    expect(form).toMatch(/<input name="assignee"(?![^>]*required)/);
    expect(form).toContain('<textarea name="description"');
  });

  test("the table: columns in order; a row links the title, shows a badge per status, a dash for no assignee", async () => {
    const t = await create("Row check", { priority: "high" });
    const html = (await page("/tasks")).text;
    const heads = [...html.matchAll(/<th>([^<]+)<\/th>/g)].map((m) => m[1]);
    expect(heads).toEqual(["Title", "Status", "Priority", "Assignee", "Created"]);
    const row = rowOf(html, t.id);
    expect(row).toContain(`<a href="/tasks/${t.id}" up-follow>Row check</a>`);
    expect(row).toContain('<span class="badge badge-open">open</span>');
    expect(row).toContain(">high<");
    expect(row).toContain("—");
    expect(row).toContain(t.created_at);
    const assigned = await create("Assigned row", { assignee: "mira" });
    expect(rowOf((await page("/tasks")).text, assigned.id)).toContain("<td>mira</td>");
  });

  test("an Unpoly fragment request (X-Up-Target) is answered with the whole page, varying on it", async () => {
    const r = await page("/tasks", { "x-up-version": "3.14.3", "x-up-target": "#task-list" });
    expect(r.status).toBe(200);
    expect(r.headers.vary).toBe("X-Up-Target");
    expect(r.text).toContain('<section id="task-list"');
  });

  test("a query-string value the route cannot take is an HTML 400 page", async () => {
    const r = await page("/tasks?limit=lots");
    expect(r.status).toBe(400);
    expectHtmlHeaders(r.headers);
    expect(r.text).toContain('argument &quot;limit&quot; must be an integer');
  });

  test("any method but GET on a page is a 405", async () => {
    const r = await call(`${server.url}/tasks`, { method: "DELETE" });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe("GET");
  });
});

describe("/tasks/:id", () => {
  test("an open task: Unassigned, No description, a dash for Completed; start (required assignee) and delete forms only", async () => {
    const t = await create("Open task");
    const r = await page(`/tasks/${t.id}`);
    expect(r.status).toBe(200);
    expectHtmlHeaders(r.headers);
    expect(r.text).toContain("<title>Open task · Task tracker</title>");
    expect(r.text).toMatch(/<dt>Assignee<\/dt>\s*<dd><span class="muted">Unassigned<\/span><\/dd>/);
    expect(r.text).toMatch(/<dt>Description<\/dt>\s*<dd class="description"><span class="muted">No description<\/span><\/dd>/);
    expect(r.text).toMatch(/<dt>Completed<\/dt>\s*<dd><span class="muted">—<\/span><\/dd>/);
    expect(r.text).toContain(`action="/api/task_tracker/${t.id}?handler=start_task"`);
    expect(r.text).toMatch(/<input name="assignee" required/);
    expect(r.text).not.toContain("handler=complete_task");
    expect(r.text).toMatch(new RegExp(`action="/api/task_tracker/${t.id}\\?handler=delete_task"\\s+up-submit up-confirm="[^"]+"`));
  });

  test("in progress: the complete form instead of start; done: neither, and Completed shows the time", async () => {
    const t = await create("Moving task", { description: "Some words", assignee: "zoe" });
    await call(`${api}/${t.id}?handler=start_task`, { json: { assignee: "zoe" } });
    const started = (await page(`/tasks/${t.id}`)).text;
    expect(started).toContain("handler=complete_task");
    expect(started).not.toContain("handler=start_task");
    expect(started).toContain('<span class="badge badge-in_progress">in_progress</span>');
    expect(started).toContain("Some words");
    expect(started).toMatch(/<dt>Assignee<\/dt>\s*<dd>zoe<\/dd>/);

    const done = (await call(`${api}/${t.id}?handler=complete_task`, { method: "POST", json: {} })).json.data.result;
    const finished = (await page(`/tasks/${t.id}`)).text;
    expect(finished).not.toContain("handler=complete_task");
    expect(finished).not.toContain("handler=start_task");
    expect(finished).toContain("handler=delete_task");
    expect(finished).toContain(`<time datetime="${done.completed_at}">${done.completed_at}</time>`);
  });

  test("a task that does not exist is an HTML 404 page", async () => {
    const r = await page("/tasks/01ARZ3NDEKTSV4RRFFQ69G5FAV");
    expect(r.status).toBe(404);
    expectHtmlHeaders(r.headers);
    expect(r.text).toContain("404 Not Found");
  });
});

describe("escaping", () => {
  test("a title like <script>alert(1)</script> renders inert in the list, the detail page and <title>", async () => {
    const t = await create("<script>alert(1)</script>", { description: '"quoted" & <b>bold</b>' });
    const list = (await page("/tasks")).text;
    const detail = (await page(`/tasks/${t.id}`)).text;
    for (const html of [list, detail]) {
      expect(html).not.toContain("<script>alert(1)</script>");
      expect(html).toContain("&lt;script&gt;alert(1)&lt;&#x2F;script&gt;");
      // The only script elements are the layout's own.
      expect([...html.matchAll(/<script\b/g)].length).toBe(1);
    }
    expect(detail).toContain("<title>&lt;script&gt;alert(1)&lt;&#x2F;script&gt; · Task tracker</title>");
    expect(detail).toContain("&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;&#x2F;b&gt;");
  });
});

describe("failed form posts", () => {
  test("re-render the page they came from with 422 and the message in the form, keeping what was typed", async () => {
    const r = await call(api, {
      method: "POST",
      body: urlencoded({ title: "   ", priority: "high", assignee: "kim", description: "kept text" }),
      headers: { "content-type": FORM, origin: server.url, referer: `${server.url}/tasks` },
    });
    expect(r.status).toBe(422);
    expectHtmlHeaders(r.headers);
    const form = r.text.slice(r.text.indexOf('<form id="create-task"'), r.text.indexOf("</form>"));
    expect(form).toContain('<p class="form-error" role="alert">title is required</p>');
    expect(form).toContain('value="kim"');
    expect(form).toContain(">kept text</textarea>");
    expect(r.headers["x-up-location"]).toBeUndefined();
  });

  test("for Unpoly, the 422 says which page the HTML is (X-Up-Location, X-Up-Method)", async () => {
    const t = await create("Start me badly");
    const r = await call(`${api}/${t.id}?handler=start_task`, {
      method: "POST",
      body: urlencoded({ assignee: "  " }),
      headers: {
        "content-type": FORM,
        origin: server.url,
        referer: `${server.url}/tasks/${t.id}`,
        "x-up-version": "3.14.3",
        "x-up-target": "main",
        "x-up-fail-target": "#task-actions",
      },
    });
    expect(r.status).toBe(422);
    expect(r.headers["x-up-location"]).toBe(`/tasks/${t.id}`);
    expect(r.headers["x-up-method"]).toBe("GET");
    const actions = r.text.slice(r.text.indexOf('<section id="task-actions"'));
    expect(actions).toContain('<p class="form-error" role="alert">assignee is required</p>');
  });

  test("without a Referer page to return to, a 422 error page carries the message", async () => {
    const r = await call(api, { method: "POST", body: urlencoded({ title: " " }), headers: { "content-type": FORM } });
    expect(r.status).toBe(422);
    expect(r.text).toContain("422 Unprocessable");
    expect(r.text).toContain("title is required");
  });

  test("a form post for a task deleted meanwhile: the page it came from is gone, so the error page says why", async () => {
    const t = await create("Gone soon");
    await call(`${api}/${t.id}?handler=delete_task`, { method: "POST", json: {} });
    const r = await call(`${api}/${t.id}?handler=start_task`, {
      method: "POST",
      body: urlencoded({ assignee: "late" }),
      headers: { "content-type": FORM, referer: `${server.url}/tasks/${t.id}` },
    });
    expect(r.status).toBe(422);
    expect(r.text).toContain("task not found");
  });
});

describe("files the server serves itself", () => {
  test("public/style.css with its type, an ETag, revalidation, and 304 for a current copy", async () => {
    const r = await call(`${server.url}/style.css`);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(r.headers["cache-control"]).toBe("no-cache");
    expect(r.text).toContain(".badge-in_progress");
    const etag = String(r.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await call(`${server.url}/style.css`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const weak = await call(`${server.url}/style.css`, { headers: { "if-none-match": `"other", W/${etag}` } });
    expect(weak.status).toBe(304);
    const stale = await call(`${server.url}/style.css`, { headers: { "if-none-match": '"stale"' } });
    expect(stale.status).toBe(200);
    const head = await call(`${server.url}/style.css`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(r.headers["content-length"]);
    expect(head.text).toBe("");
  });

  test("Unpoly 3 from the installed package, under a versioned URL cached for a year", async () => {
    const html = (await page("/tasks")).text.replaceAll("&#x2F;", "/");
    const js = /<script src="([^"]+)"/.exec(html)![1];
    const css = /<link rel="stylesheet" href="(\/_svc\/[^"]+)"/.exec(html)![1];
    const r = await call(`${server.url}${js}`);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(r.text).toContain("up.version");
    const s = await call(`${server.url}${css}`);
    expect(s.status).toBe(200);
    expect(s.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect((await call(`${server.url}${js}`, { headers: { "if-none-match": String(r.headers.etag) } })).status).toBe(304);
  });

  test("a path nothing answers: an HTML 404 page for a browser, the JSON envelope for anyone else", async () => {
    const browser = await page("/nowhere");
    expect(browser.status).toBe(404);
    expectHtmlHeaders(browser.headers);
    const client = await call(`${server.url}/nowhere`);
    expect(client.status).toBe(404);
    expect(client.json).toEqual({ ok: false, error: "not found" });
  });
});
