// A file chosen in a page's form, through a real Chromium (docs/language.md §2.7, §4, §5):
// the page's <input type="file"> posts a multipart body to a route file, whose block
// passes the file to an action; the browser follows the 303 back to the page, which lists
// the stored document, and the link serves the file's bytes back with its type.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../support/browser.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";
import { FILE_TIMEOUT, STEP_TIMEOUT, describeBrowser } from "./support.js";

describeBrowser("a page's form with a file input", () => {
  let dir: string;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    dir = await buildTo({ mode: "project", dir: join(repoRoot, "tests", "http", "projects", "uploads") });
    server = await startServer(dir, ["--db", join(dir, "browser.db")]);
    browser = await launchBrowser();
  }, FILE_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    removeDir(dir);
  }, FILE_TIMEOUT);

  test(
    "submits the chosen file, shows it in the list, and the link serves it back",
    async () => {
      const file = join(dir, "notes from the meeting.txt");
      writeFileSync(file, "Decisions: ship uploads.\n");
      const context = await browser.newContext();
      context.setDefaultTimeout(STEP_TIMEOUT);
      const page = await context.newPage();
      await page.goto(`${server.url}/docs`);
      await page.fill("input[name=title]", "Meeting notes");
      await page.setInputFiles("input[name=attachment]", file);
      // The thumbnail input is left empty: its part arrives without a file, and the argument is null.
      await Promise.all([page.waitForURL(`${server.url}/docs`), page.click("button[type=submit]")]);

      const item = page.locator("#docs li", { hasText: "Meeting notes" });
      expect(await item.locator(".name").textContent()).toBe("notes from the meeting.txt");
      expect(await item.locator(".size").textContent()).toBe("25");

      const href = await item.locator("a").getAttribute("href");
      const served = await call(`${server.url}${href}`);
      expect(served.status).toBe(200);
      expect(served.text).toBe("Decisions: ship uploads.\n");
      expect(served.headers["content-type"]).toBe("text/plain; charset=utf-8");
      const id = href!.split("/")[2];
      expect((await call(`${server.url}/docs/${id}/thumb`)).status).toBe(404);
      await context.close();
    },
    FILE_TIMEOUT,
  );
});
