// What every browser test file shares: the task tracker built and served on its own sqlite
// file and port, a headless Chromium, and the rule for machines without Chromium (skip with
// a reason, except on CI, where a missing browser must fail the run rather than hide it).

import { existsSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect } from "../support/jest.js";
import type { Browser, BrowserContextOptions, Locator, Page } from "playwright-core";
import { CHROMIUM, launchBrowser } from "../support/browser.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildProject } from "../pages/support.js";

/** Generous for a loaded machine, yet every wait ends: a broken page fails, never hangs. */
export const STEP_TIMEOUT = 20_000;
export const FILE_TIMEOUT = 180_000;

const onCi = process.env.CI === "true";

/** `describe`, or `describe.skip` with a printed reason when there is no Chromium (never on CI). */
export const describeBrowser: typeof describe = (() => {
  if (existsSync(CHROMIUM) || onCi) return describe;
  console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (install Debian's "chromium" package; with CI=true they run and fail)`);
  return describe.skip as typeof describe;
})();

export interface Session {
  server: TestServer;
  browser: Browser;
  close(): Promise<void>;
}

/** Builds the task tracker, starts it on a fresh sqlite file and launches Chromium. */
export async function openSession(): Promise<Session> {
  const out = await buildProject(join(repoRoot, "examples", "task_tracker"));
  const server = await startServer(out, ["--db", join(out, "tasks.db"), "--workers", "1"]);
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (e) {
    await server.stop();
    removeDir(out);
    throw e;
  }
  return {
    server,
    browser,
    async close() {
      try {
        await browser.close();
      } finally {
        await server.stop();
        removeDir(out);
      }
    },
  };
}

/** What a flow test drives: its session and one page, in a browser context of its own. */
export interface PageSession {
  readonly session: Session;
  readonly page: Page;
  /** The page's full page loads so far (countLoads). */
  loads(): number;
}

/**
 * Opens a session and a page before the tests of the enclosing `describe` and closes them
 * after. The fields are there once its tests run, so read them inside the tests.
 */
export function usePageSession(contextOptions?: BrowserContextOptions): PageSession {
  let session: Session | undefined;
  let page: Page | undefined;
  let loads: (() => number) | undefined;
  beforeAll(async () => {
    session = await openSession();
    const context = await session.browser.newContext(contextOptions);
    context.setDefaultTimeout(STEP_TIMEOUT);
    page = await context.newPage();
    loads = countLoads(page);
  }, FILE_TIMEOUT);

  afterAll(async () => {
    await session?.close();
  }, FILE_TIMEOUT);

  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("no browser session: its beforeAll failed, or this runs outside a test");
    return value;
  };
  return {
    get session() {
      return opened(session);
    },
    get page() {
      return opened(page);
    },
    loads: () => opened(loads)(),
  };
}

/** Counts the main frame's `load` events: a full page load adds one, an Unpoly update none. */
export function countLoads(page: Page): () => number {
  let loads = 0;
  page.on("load", () => loads++);
  return () => loads;
}

/** The table row whose title link reads `title`. */
export function rowFor(page: Page, title: string) {
  return page.locator("table.tasks tbody tr", { has: page.getByRole("link", { name: title, exact: true }) });
}

/**
 * Reads `read()` until it equals `want` (pages update asynchronously), then asserts it, so a
 * value that never comes fails with what was last seen instead of timing out silently.
 */
export async function settles<T>(read: () => Promise<T>, want: T, timeout = STEP_TIMEOUT): Promise<void> {
  const end = Date.now() + timeout;
  let last = await read();
  while (!isDeepStrictEqual(last, want) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  expect(last).toEqual(want);
}

/** The text of the first element `locator` matches, or null when there is none. */
export async function textOf(locator: Locator): Promise<string | null> {
  return (await locator.count()) === 0 ? null : ((await locator.first().textContent()) ?? "").trim();
}

/** Counts the POST requests the page sends whose URL contains `part`. */
export function countPosts(page: Page, part: string): () => number {
  let posts = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes(part)) posts++;
  });
  return () => posts;
}

/** Long enough for a submit the browser did not hold back to have left. */
export const quietPeriod = (): Promise<void> => new Promise((r) => setTimeout(r, 750));
