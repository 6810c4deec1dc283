// svc dev's trace view in Chromium: requests made to the dev server are listed at /_svc/traces,
// and one opens as a waterfall of its spans (the request, its query, its statement, the
// status); the error overlay of a broken build links to the view.

import { appendFileSync, cpSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import type { Browser, Page } from "playwright-core";
import { DevServer } from "../../compiler/dev/server.js";
import { launchBrowser } from "../support/browser.js";
import { repoRoot } from "../support/paths.js";
import { EXAMPLE_ENV, removeDir, tmpDir } from "../support/server.js";
import { FILE_TIMEOUT, STEP_TIMEOUT, describeBrowser } from "./support.js";

describeBrowser("svc dev trace view in Chromium", () => {
  let project: string;
  let dev: DevServer;
  let browser: Browser;
  let page: Page;
  const envBefore: Record<string, string | undefined> = {};

  beforeAll(async () => {
    project = tmpDir("dev-traces-");
    for (const part of ["svc.toml", "modules", "app", "public"]) {
      cpSync(join(repoRoot, "examples", "task_tracker", part), join(project, part), { recursive: true });
    }
    for (const [name, value] of Object.entries(EXAMPLE_ENV)) {
      envBefore[name] = process.env[name];
      process.env[name] ??= value;
    }
    dev = await DevServer.start({ target: { mode: "project", dir: project }, port: 0, watch: false, say: () => undefined, logSink: () => undefined });
    await dev.idle();
    browser = await launchBrowser();
    const context = await browser.newContext();
    context.setDefaultTimeout(STEP_TIMEOUT);
    page = await context.newPage();
  }, FILE_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    await dev?.close();
    if (project) removeDir(project);
    for (const [name, value] of Object.entries(envBefore)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test("requests are listed, and one opens as a waterfall of its spans", async () => {
    const created = await fetch(`${dev.url}/v1/tasks`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ title: "seen in the view" }) });
    expect(created.status).toBe(200);
    expect((await fetch(`${dev.url}/api/task_tracker:list_tasks?limit=5`)).status).toBe(200);
    expect((await fetch(`${dev.url}/no/such/thing`)).status).toBe(404);

    await page.goto(`${dev.url}/_svc/traces`);
    // Requests only: the example's nightly schedule may fire while this runs, and its job run is listed too.
    const rows = page.locator("#traces tr.trace").filter({ hasNotText: /^job / });
    // Newest first.
    await expect(rows.nth(0).locator("td").nth(0).textContent()).resolves.toBe("GET");
    await expect(rows.nth(0).locator("td").nth(1).textContent()).resolves.toBe("404");
    await expect(rows.nth(1).locator("td").nth(0).textContent()).resolves.toBe("GET /api/task_tracker:list_tasks");
    await expect(rows.nth(2).locator("td").nth(0).textContent()).resolves.toBe("POST /v1/tasks");

    await rows.nth(1).locator("a").click();
    await page.waitForURL(/\/_svc\/traces\/[0-9a-f]{32}$/);
    await expect(page.locator("h1").textContent()).resolves.toContain("200");
    const spans = page.locator("#waterfall tr.span");
    await expect(spans.count()).resolves.toBe(3);
    await expect(spans.nth(0).locator("td.name").textContent()).resolves.toBe("GET /api/task_tracker:list_tasks");
    await expect(spans.nth(1).locator("td.name").textContent()).resolves.toBe("query task_tracker.list_tasks");
    await expect(spans.nth(2).locator("td.name").textContent()).resolves.toBe("task_tracker.list_tasks");
    await expect(spans.nth(2).getAttribute("data-kind")).resolves.toBe("statement");
    // Each row has its time, and its bar lies within the request's.
    for (let i = 0; i < 3; i++) {
      await expect(spans.nth(i).locator("td.num").nth(1).textContent()).resolves.toMatch(/^\d+(\.\d+)? ms$/);
      const box = await spans.nth(i).locator(".bar").boundingBox();
      const lane = await spans.nth(i).locator(".lane").boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(lane!.x - 0.5);
      expect(box!.x + box!.width).toBeLessThanOrEqual(lane!.x + lane!.width + 0.5);
    }

    await page.locator("h1 a").click();
    await page.waitForURL(/\/_svc\/traces$/);
    // An unknown trace is a 404 page, not a crash.
    const missing = await page.goto(`${dev.url}/_svc/traces/${"0".repeat(32)}`);
    expect(missing!.status()).toBe(404);
  });

  test("the error overlay links to the trace view", async () => {
    const file = join(project, "modules", "task_tracker", "task_tracker.svc");
    appendFileSync(file, "\nquery broken( {\n");
    const result = await dev.rebuild([file]);
    expect(result.ok).toBe(false);
    await page.goto(`${dev.url}/tasks`);
    const link = page.locator('#svc-dev-overlay a[href="/_svc/traces"]');
    await link.click();
    await page.waitForURL(/\/_svc\/traces$/);
    await expect(page.locator("h1").textContent()).resolves.toContain("Traces");
  });
});
