// The catalog is the source of truth (Fastify's errors test is the model): every code is
// unique, documented, and exercised by a golden fixture or a unit test; the docs name no
// code that does not exist.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../../support/jest.js";
import { allDiagnostics, diagnosticsMarkdown } from "../../../compiler/diagnostics/catalog.js";
import { repoRoot } from "../../support/paths.js";

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

describe("diagnostic catalog", () => {
  const defs = allDiagnostics();

  test("codes are unique and well-formed", () => {
    const codes = defs.map((d) => d.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^SVC[1-9]\d{3}$/);
  });

  test("docs/diagnostics.md is generated from the catalog and up to date", () => {
    const doc = readFileSync(join(repoRoot, "docs", "diagnostics.md"), "utf8");
    expect(doc).toBe(diagnosticsMarkdown());
    // Every code in the tables exists, and every existing code has a row.
    const rows = [...doc.matchAll(/^\| (SVC\d{4}) \|/gm)].map((m) => m[1]).sort();
    expect(rows).toEqual(defs.map((d) => d.code));
  });

  test("every code is exercised by a fixture or a unit test", () => {
    const texts = [
      ...filesUnder(join(repoRoot, "fixtures"), (p) => p.endsWith("diagnostics.txt")),
      ...filesUnder(join(repoRoot, "tests"), (p) => p.endsWith(".ts") && !p.endsWith("catalog.test.ts")),
    ].map((p) => readFileSync(p, "utf8"));
    const all = texts.join("\n");
    const missing = defs.filter((d) => !all.includes(d.code)).map((d) => d.code);
    expect(missing).toEqual([]);
  });
});
