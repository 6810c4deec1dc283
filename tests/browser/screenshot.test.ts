// The README's picture of the product: /tasks with a handful of tasks in every state, styled
// by public/style.css. It is rewritten only on request (UPDATE_SCREENSHOT=1), so an ordinary
// run never dirties the tree; every run still renders it and checks the styles took.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { FILE_TIMEOUT, STEP_TIMEOUT, type Session, describeBrowser, openSession } from "./support.js";

const SCREENSHOT = join(repoRoot, "docs", "images", "tasks.png");

let session: Session | undefined;

/** Tasks a real team might have, created oldest first so the newest lists on top. */
const TASKS: { title: string; priority: string; assignee?: string; move?: "start" | "complete" }[] = [
  { title: "Set up the staging database", priority: "high", assignee: "amara", move: "complete" },
  { title: "Write the onboarding guide", priority: "medium", assignee: "lucas", move: "complete" },
  { title: "Rotate the webhook secret", priority: "critical", assignee: "amara", move: "start" },
  { title: "Review the pricing page copy", priority: "low" },
  { title: "Fix flaky login test", priority: "high", assignee: "jun", move: "start" },
  { title: "Plan the Q3 roadmap", priority: "medium" },
];

describeBrowser("screenshot of /tasks", () => {
  beforeAll(async () => {
    session = await openSession();
    const api = `${session.server.url}/api/task_tracker`;
    for (const t of TASKS) {
      const created = await call(api, { json: { title: t.title, priority: t.priority, ...(t.assignee ? { assignee: t.assignee } : {}) } });
      expect(created.status).toBe(200);
      const id: string = created.json.data.result.id;
      if (t.move) expect((await call(`${api}/${id}?handler=start_task`, { json: { assignee: t.assignee } })).status).toBe(200);
      if (t.move === "complete") expect((await call(`${api}/${id}?handler=complete_task`, { json: {} })).status).toBe(200);
    }
  }, FILE_TIMEOUT);

  afterAll(async () => {
    await session?.close();
  }, FILE_TIMEOUT);

  test(
    "renders styled, with every task; written to docs/images only with UPDATE_SCREENSHOT=1",
    async () => {
      const context = await session!.browser.newContext({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
      context.setDefaultTimeout(STEP_TIMEOUT);
      const page = await context.newPage();
      await page.goto(`${session!.server.url}/tasks`);
      await page.waitForFunction(() => "up" in globalThis);

      expect(await page.locator("table.tasks tbody tr").count()).toBe(TASKS.length);
      // A string, evaluated in the page: these tests compile without the DOM library.
      const styles = await page.evaluate(`(() => {
      const card = getComputedStyle(document.querySelector(".card"));
      return { bodyBg: getComputedStyle(document.body).backgroundColor, cardShadow: card.boxShadow, cardRadius: card.borderTopLeftRadius };
    })()`);
      expect(styles).toEqual({ bodyBg: "rgb(246, 247, 249)", cardShadow: expect.stringContaining("rgba(16, 24, 40"), cardRadius: "10px" });

      const png = await page.screenshot({ fullPage: true });
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
      if (process.env.UPDATE_SCREENSHOT === "1") writeFileSync(SCREENSHOT, png);
      await context.close();
    },
    FILE_TIMEOUT,
  );
});
