// Signing in with a session cookie in Chromium (examples/accounts), with JavaScript and
// without: sign in, see who is signed in, write a note, sign out; then the copied cookie,
// replayed in a fresh browser, is refused.

import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import type { Browser, BrowserContext } from "playwright-core";
import { startAccounts, type Accounts, post } from "../auth/support.js";
import { call } from "../support/http.js";
import { launchBrowser } from "../support/browser.js";
import { FILE_TIMEOUT, STEP_TIMEOUT, describeBrowser } from "./support.js";

describeBrowser("signing in with a session cookie", () => {
  let accounts: Accounts;
  let browser: Browser;

  beforeAll(async () => {
    accounts = await startAccounts();
    browser = await launchBrowser();
    for (const who of ["js", "nojs"]) {
      const answer = await post(accounts.server, "/api/users", { email: `${who}@example.com`, name: `Reader ${who}`, password: "open sesame" });
      expect(answer.status).toBe(200);
    }
  }, FILE_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    await accounts?.stop();
  });

  async function context(javaScriptEnabled: boolean): Promise<BrowserContext> {
    const ctx = await browser.newContext({ javaScriptEnabled });
    ctx.setDefaultTimeout(STEP_TIMEOUT);
    return ctx;
  }

  test.each([
    ["with JavaScript", true, "js"],
    ["without JavaScript", false, "nojs"],
  ])(
    "%s: sign in, write a note, sign out; the old cookie replayed is refused",
    async (_name, javaScriptEnabled, who) => {
      const base = accounts.server.url;
      const ctx = await context(javaScriptEnabled as boolean);
      const page = await ctx.newPage();
      await page.goto(`${base}/`);
      expect(await page.locator("#anonymous").textContent()).toBe("Sign in to see your notes.");

      await page.getByRole("link", { name: "Sign in" }).click();
      await page.waitForURL(`${base}/sign-in`);
      await page.getByLabel("E-mail").fill(`${who}@example.com`);
      await page.getByLabel("Password").fill("wrong password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.locator(".form-error").waitFor();
      expect(await page.locator(".form-error").textContent()).toBe("wrong e-mail or password");
      expect(await page.getByLabel("E-mail").inputValue()).toBe(`${who}@example.com`);

      await page.getByLabel("Password").fill("open sesame");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.locator("#signed-in-as").waitFor();
      expect(page.url()).toBe(`${base}/`);
      expect(await page.locator("h1").textContent()).toBe(`Hello, Reader ${who}`);

      const [cookie] = await ctx.cookies();
      expect(cookie).toMatchObject({ name: "svc_session", httpOnly: true, sameSite: "Lax", path: "/" });
      // HttpOnly: scripts on the page cannot read it.
      if (javaScriptEnabled) expect(await page.evaluate("document.cookie")).toBe("");

      await page.getByLabel("Note").fill(`a note by ${who}`);
      await page.getByRole("button", { name: "Add note" }).click();
      await page.locator("#notes li", { hasText: `a note by ${who}` }).waitFor();

      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.waitForURL(`${base}/sign-in`);
      await page.getByRole("link", { name: "Sign in" }).waitFor();
      expect(await ctx.cookies()).toEqual([]);
      await ctx.close();

      // Someone who copied the cookie before the sign-out gets nothing with it.
      const thief = await context(javaScriptEnabled as boolean);
      await thief.addCookies([{ name: cookie.name, value: cookie.value, url: base }]);
      const stolen = await thief.newPage();
      await stolen.goto(`${base}/`);
      expect(await stolen.locator("#anonymous").textContent()).toBe("Sign in to see your notes.");
      expect(await stolen.locator("#signed-in-as").count()).toBe(0);
      await thief.close();
      const api = await call(`${base}/api/accounts:my_notes`, { method: "POST", json: {}, headers: { cookie: `${cookie.name}=${cookie.value}` } });
      expect(api.status).toBe(401);
    },
    FILE_TIMEOUT,
  );
});
