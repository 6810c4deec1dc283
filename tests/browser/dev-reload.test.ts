// svc dev in a real browser: after a save of a page template, Unpoly re-renders the main
// area in place (the page is not loaded again: a value set on `window` survives); after a
// save of the layout, the whole page reloads.

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import type { Browser, Page } from "playwright-core";
import { DevServer } from "../../compiler/dev/server.js";
import { launchBrowser } from "../support/browser.js";
import { repoRoot } from "../support/paths.js";
import { EXAMPLE_ENV, removeDir, tmpDir } from "../support/server.js";
import { FILE_TIMEOUT, STEP_TIMEOUT, describeBrowser } from "./support.js";

function replaceIn(file: string, from: string, to: string): void {
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

describeBrowser("svc dev live reload in Chromium", () => {
  let project: string;
  let dev: DevServer;
  let browser: Browser;
  let page: Page;
  /** The environment as it was, restored after: other tests in this jest worker share it. */
  const envBefore: Record<string, string | undefined> = {};

  beforeAll(async () => {
    project = tmpDir("dev-browser-");
    for (const part of ["svc.toml", "modules", "app", "public"]) {
      cpSync(join(repoRoot, "examples", "task_tracker", part), join(project, part), { recursive: true });
    }
    // The example's webhook credential, as `npm run dev` passes it.
    for (const [name, value] of Object.entries(EXAMPLE_ENV)) {
      envBefore[name] = process.env[name];
      process.env[name] ??= value;
    }
    dev = await DevServer.start({
      target: { mode: "project", dir: project },
      port: 0,
      say: () => undefined,
      logSink: () => undefined,
    });
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

  /** Loads /tasks and waits until Unpoly runs and the page listens for reloads. */
  async function openTasks(): Promise<void> {
    await page.goto(`${dev.url}/tasks`);
    await page.waitForFunction(() => "up" in globalThis);
    const deadline = Date.now() + STEP_TIMEOUT;
    while (dev.listeners === 0) {
      if (Date.now() > deadline) throw new Error("the page never opened the reload stream");
      await new Promise((r) => setTimeout(r, 25));
    }
    await page.evaluate(() => ((globalThis as unknown as { svcMarker?: number }).svcMarker = 1));
  }

  const marker = () => page.evaluate(() => (globalThis as unknown as { svcMarker?: number }).svcMarker ?? null);

  test(
    "a page template save re-renders the main area without loading the page again",
    async () => {
      await openTasks();
      expect(await page.locator("main h1").textContent()).toBe("Tasks");
      replaceIn(join(project, "app", "tasks", "page.html"), "<h1>Tasks</h1>", "<h1>All tasks</h1>");
      await page.locator("main h1", { hasText: "All tasks" }).waitFor();
      expect(await marker()).toBe(1);
    },
    FILE_TIMEOUT,
  );

  test(
    "a layout save reloads the whole page",
    async () => {
      await openTasks();
      replaceIn(join(project, "app", "layout.html"), ">Task tracker</a>", ">Task tracker (dev)</a>");
      await page.locator(".brand", { hasText: "Task tracker (dev)" }).waitFor();
      expect(await marker()).toBeNull();
    },
    FILE_TIMEOUT,
  );
});
