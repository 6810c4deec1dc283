// The task tracker's GitHub webhook as the README documents it: the curl line there, run
// against the example built and served, creates a task once; and the development secret it
// is signed with is the one `npm run example` sets.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { EXAMPLE_ENV, type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer, hmacHex } from "./support.js";

const DEV_SECRET = "dev-secret";
const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

/** The README's curl line for the webhook: its headers and body, as a shell would pass them. */
function readmeDelivery(): { path: string; headers: Record<string, string>; body: string } {
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((b) => b.includes("/webhooks/github"));
  if (block === undefined) throw new Error("README.md has no curl line for /webhooks/github");
  const command = block.replace(/\\\n\s*/g, " ");
  const headers: Record<string, string> = {};
  for (const m of command.matchAll(/-H '([^:']+): ([^']*)'/g)) headers[m[1].toLowerCase()] = m[2];
  const body = /--data-binary '([^']*)'/.exec(command)?.[1];
  const path = /localhost:8080(\/\S+)/.exec(command)?.[1];
  if (body === undefined || path === undefined) throw new Error(`cannot read the curl line:\n${block}`);
  return { path, headers, body };
}

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "examples", "task_tracker") });
  server = await startServer(dir, ["--db", join(dir, "tasks.db"), "--workers", "1"], {
    GITHUB_WEBHOOK_SECRET: DEV_SECRET,
  });
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

describe("the README's webhook example", () => {
  test("is signed with the development secret that npm run example and the test servers use", () => {
    const { headers, body } = readmeDelivery();
    expect(headers["x-hub-signature-256"]).toBe(`sha256=${hmacHex(DEV_SECRET, body)}`);
    const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
    expect(pkg.scripts.example).toContain(`GITHUB_WEBHOOK_SECRET=\${GITHUB_WEBHOOK_SECRET:-${DEV_SECRET}}`);
    expect(EXAMPLE_ENV.GITHUB_WEBHOOK_SECRET).toBe(DEV_SECRET);
    expect(readFileSync(join(repoRoot, "examples", "task_tracker", "svc.toml"), "utf8")).toContain(
      'github_webhook = { env = "GITHUB_WEBHOOK_SECRET" }',
    );
  });

  test("creates the task once; the same delivery again is acknowledged and changes nothing", async () => {
    const { path, headers, body } = readmeDelivery();
    const first = await call(`${server.url}${path}`, { method: "POST", headers, body });
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({
      title: "Login page shows a blank screen",
      description: "https://github.com/acme/web/issues/7",
      status: "open",
    });
    const again = await call(`${server.url}${path}`, { method: "POST", headers, body });
    expect(again.json).toEqual({ ok: true, data: null });
    const tasks = await call(`${server.url}/api/task_tracker:list_open_tasks?limit=50`);
    expect(tasks.json.data.filter((t: any) => t.title === "Login page shows a blank screen")).toHaveLength(1);
  });

  test("other events and other issue actions are accepted and create nothing", async () => {
    const deliveries = [
      { event: "ping", body: '{"zen":"Design for failure."}' },
      { event: "issues", body: '{"action":"closed","issue":{"title":"Closed one","html_url":"u"}}' },
    ];
    for (const [i, d] of deliveries.entries()) {
      const r = await call(`${server.url}/webhooks/github`, {
        method: "POST",
        body: d.body,
        headers: {
          "content-type": "application/json",
          "x-github-event": d.event,
          "x-github-delivery": `other-${i}`,
          "x-hub-signature-256": `sha256=${hmacHex(DEV_SECRET, d.body)}`,
        },
      });
      expect(r.json).toEqual({ ok: true, data: null });
    }
    const tasks = await call(`${server.url}/api/task_tracker:list_open_tasks?limit=50`);
    expect(tasks.json.data.some((t: any) => t.title === "Closed one")).toBe(false);
  });

  test("a byte changed in the README's body is a 401", async () => {
    const { path, headers, body } = readmeDelivery();
    const r = await call(`${server.url}${path}`, { method: "POST", headers, body: body.replace("blank", "Blank") });
    expect(r.status).toBe(401);
  });

  test("without GITHUB_WEBHOOK_SECRET the example does not start, and says what to set", async () => {
    const attempt = startServer(dir, ["--db", join(dir, "other.db"), "--workers", "1"], {
      GITHUB_WEBHOOK_SECRET: undefined,
    });
    await expect(attempt).rejects.toThrow(
      /credential "github_webhook" is missing: the environment variable GITHUB_WEBHOOK_SECRET is not set/,
    );
  });
});

describe("payload members of the wrong type (issue 15 part 10)", () => {
  const deliver = (id: string, body: string) =>
    call(`${server.url}/webhooks/github`, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-github-event": "issues",
        "x-github-delivery": id,
        "x-hub-signature-256": `sha256=${hmacHex(DEV_SECRET, body)}`,
      },
    });

  test("a title that is not text is a 400 naming the member, and no task is written", async () => {
    const cases = [
      { title: {}, url: "x" },
      { title: ["a"], url: "x" },
      { title: 5, url: "x" },
      { title: true, url: "x" },
    ];
    for (const [i, c] of cases.entries()) {
      const body = JSON.stringify({ action: "opened", issue: { title: c.title, html_url: c.url } });
      const r = await deliver(`bad-title-${i}`, body);
      expect([r.status, r.json]).toEqual([400, { ok: false, error: "payload.issue.title must be text" }]);
    }
    const tasks = await call(`${server.url}/api/task_tracker:list_tasks?limit=1000`);
    expect(tasks.json.data.some((t: any) => t.description === "x")).toBe(false);
  });

  test("a nullable member may be absent or null, and is checked when present", async () => {
    const missing = await deliver("url-missing", JSON.stringify({ action: "opened", issue: { title: "No url" } }));
    expect([missing.status, missing.json.data.title, missing.json.data.description]).toEqual([200, "No url", null]);
    const number = await deliver("url-number", JSON.stringify({ action: "opened", issue: { title: "T", html_url: 5 } }));
    expect([number.status, number.json]).toEqual([400, { ok: false, error: "payload.issue.html_url must be text" }]);
    // The same delivery id, once fixed by the sender, is handled: a refused one was not recorded.
    const fixed = await deliver("url-number", JSON.stringify({ action: "opened", issue: { title: "T", html_url: "u" } }));
    expect([fixed.status, fixed.json.data.description]).toEqual([200, "u"]);
  });
});
