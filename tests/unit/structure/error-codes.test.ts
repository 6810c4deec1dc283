// Every error the runtime throws carries a code of the catalog (runtime/contract/error-codes.ts),
// the codes are unique and of one form, and docs/runtime-errors.md lists each one. The scanner
// is tested on made-up sources too, so a scan that could never fail would show.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../../support/jest.js";
import { runtimeErrorsMarkdown } from "../../../compiler/tools/runtime-errors-markdown.js";
import { ERROR_CODES } from "../../../runtime/contract/error-codes.js";
import { codeOf } from "../../../runtime/core/errors.js";
import { repoRoot } from "../../support/paths.js";
import { uncodedThrows } from "./error-codes-scan.js";

const CODES = new Set(Object.keys(ERROR_CODES));

function runtimeSources(): { file: string; source: string }[] {
  return readdirSync(join(repoRoot, "runtime"), { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"))
    .map((p) => ({ file: `runtime/${p}`, source: readFileSync(join(repoRoot, "runtime", p), "utf8") }));
}

describe("the runtime's throw sites", () => {
  const sources = runtimeSources();

  test("the scan reads the runtime: many files, many coded throw sites", () => {
    expect(sources.length).toBeGreaterThan(100);
    const sites = sources.reduce((n, s) => n + (s.source.match(/throw new \w*Error\(/g) ?? []).length, 0);
    expect(sites).toBeGreaterThan(150);
  });

  test("every `throw new …Error(` names a code of the catalog", () => {
    expect(sources.flatMap((s) => uncodedThrows(s.file, s.source, CODES))).toEqual([]);
  });
});

describe("the scanner", () => {
  const scan = (source: string) => uncodedThrows("made-up.ts", source, CODES).map((u) => u.line);

  test("a site without a code is found, on its line", () => {
    const source = [
      'throw new StartupError("SVC_ERR_OPTION", "bad flag");',
      'throw new Error("no code here");',
      'if (x) throw new HttpError(404, "not found");',
      'throw new HttpError(404, "not found", { code: "SVC_ERR_NOT_FOUND" });',
      'throw cond ? new SvcError("SVC_ERR_INTERNAL", "a") : new RangeError("b");',
    ].join("\n");
    expect(scan(source)).toEqual([2, 3, 5]);
  });

  test("a code that is not in the catalog, or only in a comment or a message, does not count", () => {
    expect(scan('throw new StartupError("SVC_ERR_NO_SUCH_CODE", "x");')).toEqual([1]);
    expect(scan('throw new Error(/* "SVC_ERR_INTERNAL" */ "x");')).toEqual([1]);
    expect(scan('throw new Error("failed with SVC_ERR_INTERNAL");')).toEqual([1]);
    expect(scan("throw new Error(`SVC_ERR_INTERNAL`);")).toEqual([1]);
  });

  test("a multi-line site is read whole; an error passed to a call is a cause, not the thrown value", () => {
    expect(scan('throw new StartupError(\n  "SVC_ERR_MIGRATION",\n  `table ${t}`,\n);')).toEqual([]);
    expect(scan("throw unavailable(new Error('cut short'));")).toEqual([]);
    expect(scan("throw (saved ?? new Error('none'));")).toEqual([1]);
    expect(scan("const e = new Error('not thrown here');")).toEqual([]);
  });
});

describe("the catalog", () => {
  test("codes are SVC_ERR_ and upper snake case, and unique", () => {
    const keys = Object.keys(ERROR_CODES);
    for (const code of keys) expect(code).toMatch(/^SVC_ERR_[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
    // An object literal's duplicate key would silently keep the last: count them in the source.
    const source = readFileSync(join(repoRoot, "runtime/contract/error-codes.ts"), "utf8");
    const declared = [...source.matchAll(/^\s+(SVC_ERR_\w+): \{/gm)].map((m) => m[1]);
    expect(declared).toEqual(keys);
    expect(new Set(declared).size).toBe(declared.length);
  });

  test("every code has a meaning, and a status that is an error status, 'varies' or none", () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      expect([code, info.meaning.length > 10]).toEqual([code, true]);
      const status: unknown = "status" in info ? info.status : undefined;
      if (typeof status === "number") expect(status >= 400 && status <= 599).toBe(true);
      else expect([undefined, "varies"]).toContain(status);
    }
  });

  test("every code is used in runtime/ (a code nothing raises is a stale row)", () => {
    const all = runtimeSources()
      .filter((s) => s.file !== "runtime/contract/error-codes.ts")
      .map((s) => s.source)
      .join("\n");
    expect(Object.keys(ERROR_CODES).filter((code) => !all.includes(`"${code}"`))).toEqual([]);
  });

  test("codeOf: an error's catalog code, or SVC_ERR_INTERNAL for anything else", () => {
    expect(codeOf({ code: "SVC_ERR_BIND" })).toBe("SVC_ERR_BIND");
    expect(codeOf(Object.assign(new Error("x"), { code: "ENOENT" }))).toBe("SVC_ERR_INTERNAL");
    expect(codeOf({ code: "toString" })).toBe("SVC_ERR_INTERNAL");
    expect(codeOf(null)).toBe("SVC_ERR_INTERNAL");
    expect(codeOf("a string")).toBe("SVC_ERR_INTERNAL");
  });
});

describe("docs/runtime-errors.md", () => {
  const doc = readFileSync(join(repoRoot, "docs/runtime-errors.md"), "utf8");

  test("its table lists every code of the catalog, once, with its status", () => {
    const rows = [...doc.matchAll(/^\| `(SVC_ERR_\w+)` \| .* \| ([^|]+) \|$/gm)].map((m) => [m[1], m[2].trim()]);
    const expected = Object.entries(ERROR_CODES).map(([code, info]) => [
      code,
      "status" in info ? String(info.status) : "—",
    ]);
    expect(rows).toEqual(expected);
  });

  test("is what the catalog generates (npm run docs:runtime-errors)", () => {
    expect(doc).toBe(runtimeErrorsMarkdown());
  });

  test("docs/operations.md links to it", () => {
    expect(readFileSync(join(repoRoot, "docs/operations.md"), "utf8")).toContain("(runtime-errors.md)");
  });
});
