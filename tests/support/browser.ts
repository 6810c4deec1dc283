import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium; `.ci/run` installs the `chromium` package when it is missing. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Headless Chromium on this machine's closed network: background networking off (its
 * connections would be refused, many at a time), no sandbox (tests run as root).
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-gpu", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}
