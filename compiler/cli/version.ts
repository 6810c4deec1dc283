import { readFileSync } from "node:fs";

/** svc's own version, from its package.json (two levels above build/compiler/cli). */
export const VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
    return pkg.version;
  } catch {
    return "0.0.0";
  }
})();
