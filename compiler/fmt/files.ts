// Which files `svc fmt` formats: the paths given, and every `.svc` file below the folders
// given (node_modules and hidden folders left out), in a stable order.

import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export function svcFiles(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const path of paths) {
    if (statSync(path).isDirectory()) walk(path, out);
    else out.add(path);
  }
  return [...out];
}

function walk(dir: string, out: Set<string>): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) walk(path, out);
    else if (e.isFile() && e.name.endsWith(".svc")) out.add(path);
  }
}
