// A page on another site attacks the task tracker through a real Chromium (issue 30 part 3):
// a form it submits and a bodiless no-cors fetch are sent with the browser's own
// Sec-Fetch-Site and Origin, and the server refuses both before anything runs. The page is
// served from `localhost`, the tracker from `127.0.0.1`: two sites to the browser.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { FILE_TIMEOUT, STEP_TIMEOUT, type Session, describeBrowser, openSession, settles } from "./support.js";

describeBrowser("a page on another site", () => {
  let session: Session;
  let attacker: Server;
  let attackerUrl: string;
  /** What the attacker's page does, set per test. */
  let html = "";

  beforeAll(async () => {
    session = await openSession();
    attacker = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(html);
    });
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}/`;
  }, FILE_TIMEOUT);

  afterAll(async () => {
    await new Promise((resolve) => attacker?.close(resolve));
    await session?.close();
  }, FILE_TIMEOUT);

  async function tasks(): Promise<{ id: string; title: string }[]> {
    const r = await call(`${session.server.url}/api/task_tracker?limit=100`);
    expect(r.status).toBe(200);
    return r.json.data.records;
  }

  test(
    "its form post and its bodiless fetch are refused with 403, and nothing changes",
    async () => {
      const base = session.server.url;
      const created = await call(`${base}/api/task_tracker`, { json: { title: "keep me" } });
      const victim = created.json.data.result.id as string;
      const before = await tasks();

      const context = await session.browser.newContext();
      context.setDefaultTimeout(STEP_TIMEOUT);
      const page = await context.newPage();
      const answers: { url: string; status: number }[] = [];
      page.on("response", (r) => {
        // POSTs only: a navigation to the tracker also asks it for a favicon. (Whether Chromium
        // adds Sec-Fetch-Site or only Origin to each is its business: the server judges both.)
        if (r.url().startsWith(base) && r.request().method() === "POST") answers.push({ url: r.url(), status: r.status() });
      });

      // A form that posts itself on load, as a CSRF page does.
      html = `<form id="f" method="POST" action="${base}/api/task_tracker"><input name="title" value="planted"></form>
        <script>document.getElementById("f").submit()</script>`;
      await page.goto(attackerUrl);
      await page.waitForURL(`${base}/api/task_tracker`);
      expect(await page.textContent("body")).toContain("cross-site POST requests are not accepted");

      // A fetch with no body and no Content-Type needs no preflight: only the server can stop it.
      html = `<p>hello</p>`;
      await page.goto(attackerUrl);
      await page.evaluate(async (url) => {
        await fetch(url, { method: "POST", mode: "no-cors" });
      }, `${base}/api/task_tracker:delete_task?id=${victim}`);
      await settles(async () => answers.length, 2);

      expect(answers.map((a) => a.status)).toEqual([403, 403]);
      expect(await tasks()).toEqual(before);
      await context.close();
    },
    FILE_TIMEOUT,
  );

  test(
    "the tracker's own pages still post: same-origin passes",
    async () => {
      const context = await session.browser.newContext({ javaScriptEnabled: false });
      context.setDefaultTimeout(STEP_TIMEOUT);
      const page = await context.newPage();
      await page.goto(`${session.server.url}/tasks`);
      const form = page.locator("#create-task");
      await form.getByLabel("Title").fill("from this site");
      await Promise.all([page.waitForURL(`${session.server.url}/tasks`), form.getByRole("button", { name: "Create task" }).click()]);
      expect((await tasks()).some((t) => t.title === "from this site")).toBe(true);
      await context.close();
    },
    FILE_TIMEOUT,
  );
});
