// The same lifecycle with JavaScript off: no Unpoly, so every link and form is an ordinary
// full page load (counted through `load` events), and deleting posts at once (the confirm
// is Unpoly's, so there is no dialog). The pages must work this way too.

import { expect, test } from "../support/jest.js";
import {
  FILE_TIMEOUT,
  countPosts,
  describeBrowser,
  quietPeriod,
  rowFor,
  settles,
  textOf,
  usePageSession,
} from "./support.js";

describeBrowser("without JavaScript", () => {
  const flow = usePageSession({ javaScriptEnabled: false });

  /** Runs `act` and waits for the full page load it must cause. */
  async function loadsPage(act: () => Promise<void>): Promise<void> {
    const before = flow.loads();
    await act();
    await settles(async () => flow.loads(), before + 1);
  }

  test(
    "create, open, start, complete and delete a task, each step a full page load",
    async () => {
      const { page, loads } = flow;
      const base = flow.session.server.url;
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.accept();
      });
      await page.goto(`${base}/tasks`);
      expect(loads()).toBe(1);
      expect(await page.evaluate(() => "up" in globalThis).catch(() => false)).toBe(false);

      const form = page.locator("#create-task");
      await form.getByLabel("Title").fill("Fix the fence");
      await form.getByLabel("Priority").selectOption("low");
      await loadsPage(() => form.getByRole("button", { name: "Create task" }).click());
      expect(page.url()).toBe(`${base}/tasks`);
      const row = rowFor(page, "Fix the fence");
      expect(await textOf(row.locator(".badge"))).toBe("open");
      expect(await textOf(row.locator(".priority"))).toBe("low");

      await loadsPage(() => row.getByRole("link", { name: "Fix the fence" }).click());
      expect(page.url()).toMatch(/\/tasks\/[0-9A-Z]{26}$/);
      const taskUrl = page.url();
      expect(await page.title()).toBe("Fix the fence · Task tracker");

      // An empty assignee: HTML's own validation holds the form back, no request, no load.
      const actions = page.locator("#task-actions");
      const before = loads();
      const starts = countPosts(page, "handler=start_task");
      await actions.getByRole("button", { name: "Start task" }).click();
      await quietPeriod();
      expect(starts()).toBe(0);
      expect(loads()).toBe(before);
      expect(await actions.locator("input[name=assignee]:invalid").count()).toBe(1);
      // Spaces reach the server: a 422 page for the same task, the message in the actions card.
      await actions.getByLabel("Assignee").fill("  ");
      await loadsPage(() => actions.getByRole("button", { name: "Start task" }).click());
      expect(await textOf(page.locator("#task-actions .form-error"))).toBe("assignee is required");
      expect(await textOf(page.locator(".page-head .badge"))).toBe("open");

      await page.locator("#task-actions").getByLabel("Assignee").fill("sam");
      await loadsPage(() => page.locator("#task-actions").getByRole("button", { name: "Start task" }).click());
      expect(page.url()).toBe(taskUrl);
      expect(await textOf(page.locator(".page-head .badge"))).toBe("in_progress");
      expect(await page.locator(".form-error").count()).toBe(0);

      await loadsPage(() => page.locator("#task-actions").getByRole("button", { name: "Complete task" }).click());
      expect(page.url()).toBe(taskUrl);
      expect(await textOf(page.locator(".page-head .badge"))).toBe("done");
      expect(await page.locator("#task-actions").getByRole("button", { name: "Complete task" }).count()).toBe(0);

      await loadsPage(() => page.locator("#task-actions").getByRole("button", { name: "Delete task" }).click());
      expect(page.url()).toBe(`${base}/tasks`);
      expect(dialogs).toEqual([]);
      expect(await rowFor(page, "Fix the fence").count()).toBe(0);
      expect(await page.locator("table.tasks td.empty").count()).toBe(1);
    },
    FILE_TIMEOUT,
  );

  test(
    "a title of only spaces is a 422 page with the error in the form",
    async () => {
      const { page } = flow;
      await page.goto(`${flow.session.server.url}/tasks`);
      const form = page.locator("#create-task");
      await form.getByLabel("Title").fill("   ");
      await form.getByLabel("Assignee").fill("ines");
      let status = 0;
      page.once("response", (r) => {
        if (r.request().method() === "POST") status = r.status();
      });
      await loadsPage(() => form.getByRole("button", { name: "Create task" }).click());
      expect(status).toBe(422);
      expect(await textOf(page.locator("#create-task .form-error"))).toBe("title is required");
      expect(await page.locator("#create-task").getByLabel("Assignee").inputValue()).toBe("ines");
    },
    FILE_TIMEOUT,
  );
});
