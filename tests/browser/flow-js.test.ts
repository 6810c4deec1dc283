// The task tracker in a real browser with JavaScript on: Unpoly turns links and forms into
// fragment updates, so a whole lifecycle (create, open, start, complete, delete) happens in
// one document. A `window.__marker` set at the start and a count of `load` events prove it.

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

describeBrowser("with JavaScript (Unpoly)", () => {
  const flow = usePageSession();

  const marked = () => flow.page.evaluate(() => (globalThis as unknown as { __marker?: number }).__marker);

  test(
    "create, open, start, complete and delete a task without a full page load",
    async () => {
      const { page, loads } = flow;
      const base = flow.session.server.url;
      await page.goto(`${base}/tasks`);
      await page.waitForFunction(() => "up" in globalThis);
      expect(loads()).toBe(1);
      await settles(() => page.locator("nav[up-nav] a.up-current").count(), 1);
      await page.evaluate(() => {
        (globalThis as unknown as { __marker: number }).__marker = 1;
      });

      // Create through the form: only #task-list is swapped; the row appears.
      const form = page.locator("#create-task");
      await form.getByLabel("Title").fill("Water the plants");
      await form.getByLabel("Priority").selectOption("high");
      await form.getByLabel("Assignee").fill("noor");
      await form.getByRole("button", { name: "Create task" }).click();
      const row = rowFor(page, "Water the plants");
      await row.waitFor();
      expect(await row.locator(".badge").textContent()).toBe("open");
      expect(await row.locator(".priority").textContent()).toBe("high");
      expect(await page.locator("#create-task").getByLabel("Title").inputValue()).toBe("");
      expect(await marked()).toBe(1);

      // Open it: Unpoly navigation changes the URL and the main content, not the document.
      await row.getByRole("link", { name: "Water the plants" }).click();
      await page.waitForURL(/\/tasks\/[0-9A-Z]{26}$/);
      await page.getByRole("heading", { level: 1, name: "Water the plants" }).waitFor();
      expect(await page.title()).toBe("Water the plants · Task tracker");
      // up-alias="/tasks/*" keeps the Tasks link current on a task's page.
      expect(await page.locator("nav[up-nav] a.up-current").textContent()).toBe("Tasks");
      expect(await marked()).toBe(1);

      // Start: an empty assignee is stopped by the browser's own required check…
      const actions = page.locator("#task-actions");
      const assignee = actions.getByLabel("Assignee");
      const starts = countPosts(page, "handler=start_task");
      await actions.getByRole("button", { name: "Start task" }).click();
      await quietPeriod();
      expect(starts()).toBe(0);
      expect(await actions.locator("input[name=assignee]:invalid").count()).toBe(1);
      expect(await page.locator(".page-head .badge").textContent()).toBe("open");
      // …spaces pass it and the server answers 422, shown inside the actions card…
      await assignee.fill("   ");
      const refused = page.waitForResponse((r) => r.url().includes("handler=start_task"));
      await actions.getByRole("button", { name: "Start task" }).click();
      expect((await refused).status()).toBe(422);
      await settles(() => textOf(actions.locator(".form-error")), "assignee is required");
      expect(await page.locator(".page-head .badge").textContent()).toBe("open");
      // …and a name starts it.
      await actions.getByLabel("Assignee").fill("noor");
      await actions.getByRole("button", { name: "Start task" }).click();
      await settles(() => textOf(page.locator(".page-head .badge")), "in_progress");
      expect(await page.locator(".form-error").count()).toBe(0);

      await actions.getByRole("button", { name: "Complete task" }).click();
      await settles(() => textOf(page.locator(".page-head .badge")), "done");
      await settles(() => actions.getByRole("button", { name: "Complete task" }).count(), 0);
      expect(await page.locator("dl.details time").count()).toBe(2);

      // Delete asks first (up-confirm); accepting posts it and lands on the list.
      const dialogs: string[] = [];
      page.once("dialog", (d) => {
        dialogs.push(d.message());
        void d.accept();
      });
      await actions.getByRole("button", { name: "Delete task" }).click();
      await page.waitForURL(`${base}/tasks`);
      expect(dialogs).toEqual(["Delete this task? This cannot be undone."]);
      await page.locator("table.tasks td.empty").waitFor();
      await settles(() => rowFor(page, "Water the plants").count(), 0);

      expect(await marked()).toBe(1);
      expect(loads()).toBe(1);
    },
    FILE_TIMEOUT,
  );

  test(
    "a title of only spaces re-renders the form with the error (422), keeping the other fields",
    async () => {
      const { page } = flow;
      await page.goto(`${flow.session.server.url}/tasks`);
      await page.waitForFunction(() => "up" in globalThis);
      const form = page.locator("#create-task");
      await form.getByLabel("Title").fill("    ");
      await form.getByLabel("Assignee").fill("ines");
      await form.getByLabel("Description").fill("kept across the error");
      const answered = page.waitForResponse((r) => r.request().method() === "POST");
      await form.getByRole("button", { name: "Create task" }).click();
      expect((await answered).status()).toBe(422);
      await settles(() => textOf(page.locator("#create-task .form-error")), "title is required");
      expect(await page.locator("#create-task").getByLabel("Assignee").inputValue()).toBe("ines");
      expect(await page.locator("#create-task").getByLabel("Description").inputValue()).toBe("kept across the error");
      await settles(() => page.locator("table.tasks td.empty").count(), 1);
    },
    FILE_TIMEOUT,
  );
});
