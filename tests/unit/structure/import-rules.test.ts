// The import graph held to the rules of rules.ts: the runtime never imports the compiler, a
// compiler phase never imports a later one, a runtime feature reaches another only through
// its index, answers go through the one answer API. The checker is tested on a made-up graph
// too, so a rule that could never fail would show.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe as group, expect, test } from "../../support/jest.js";
import { repoRoot } from "../../support/paths.js";
import { describe, globRegExp, importGraph, resolveSpecifier, specifiersOf, violations, type ImportRule } from "./graph.js";
import { IMPORT_RULES, RUNTIME_FEATURES, RUNTIME_PARTS } from "./rules.js";

group("the source tree", () => {
  const edges = importGraph(repoRoot, ["compiler", "runtime"]);

  test("the graph is read: edges from every phase and every runtime folder", () => {
    for (const folder of ["compiler/parse/", "compiler/analyze/", "compiler/generate/", "runtime/core/", "runtime/start/", "runtime/pages/"]) {
      expect(edges.some((e) => e.from.startsWith(folder))).toBe(true);
    }
    expect(edges).toContainEqual({ from: "runtime/core/server.ts", to: "runtime/core/router.ts" });
  });

  test("no import breaks a rule", () => {
    expect(violations(edges, IMPORT_RULES).map(describe)).toEqual([]);
  });

  test("every folder of runtime/ is a feature or a named part, so no new folder escapes the rules", () => {
    const folders = readdirSync(join(repoRoot, "runtime"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !RUNTIME_FEATURES.includes(f) && !RUNTIME_PARTS.includes(f))).toEqual([]);
  });
});

group("the checker", () => {
  const rules: ImportRule[] = [
    { from: "runtime/**", mayNotImport: "compiler/**", why: "runtime alone" },
    { from: "runtime/auth/**", mayNotImport: "runtime/{db,pages}/**", except: "runtime/{db,pages}/index.ts", why: "index only" },
  ];

  test("a made-up graph: each forbidden edge is found with its rule, allowed ones are not", () => {
    const edges = [
      { from: "runtime/core/server.ts", to: "compiler/analyze/model.ts" },
      { from: "runtime/auth/jwt.ts", to: "runtime/db/sqlite/rows.ts" },
      { from: "runtime/auth/jwt.ts", to: "runtime/db/index.ts" },
      { from: "runtime/auth/jwt.ts", to: "runtime/auth/cookies.ts" },
      { from: "compiler/cli/svc.ts", to: "runtime/index.ts" },
    ];
    expect(violations(edges, rules).map(describe)).toEqual([
      "runtime/core/server.ts imports compiler/analyze/model.ts: runtime alone",
      "runtime/auth/jwt.ts imports runtime/db/sqlite/rows.ts: index only",
    ]);
  });

  test("the real rules catch a runtime file importing the compiler and a phase importing a later one", () => {
    const edges = [
      { from: "runtime/lang/args.ts", to: "compiler/diagnostics/index.ts" },
      { from: "compiler/parse/parser.ts", to: "compiler/analyze/index.ts" },
      { from: "compiler/analyze/index.ts", to: "compiler/generate/index.ts" },
      { from: "compiler/generate/index.ts", to: "compiler/cli/svc.ts" },
      { from: "runtime/pages/pages.ts", to: "runtime/webhooks/reply.ts" },
      { from: "runtime/core/server.ts", to: "runtime/start/main.ts" },
      { from: "runtime/pages/pages.ts", to: "runtime/core/answer/envelope.ts" },
    ];
    expect(violations(edges, IMPORT_RULES).map((v) => v.edge)).toEqual(edges);
  });

  test("specifiers: imports and re-exports, static and dynamic, comments left out", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../b/index.js";',
      'export * from "./c.js";',
      'import "./d.js";',
      'const e = await import("./e.js");',
      '// import { no } from "./commented.js";',
      '/* export { no } from "./block.js"; */',
      'import { readFileSync } from "node:fs";',
    ].join("\n");
    expect(specifiersOf(text)).toEqual(["./a.js", "../b/index.js", "./c.js", "./d.js", "./e.js", "node:fs"]);
    expect(resolveSpecifier("runtime/core/server.ts", "../pages/index.js")).toBe("runtime/pages/index.ts");
    expect(resolveSpecifier("compiler/cli/svc.ts", "svc/runtime")).toBe("runtime/index.ts");
    expect(resolveSpecifier("runtime/core/log.ts", "node:fs")).toBeNull();
  });

  test("globs: ** any depth (none too), * one name, {a,b} either", () => {
    expect(globRegExp("runtime/**").test("runtime/core/answer/index.ts")).toBe(true);
    expect(globRegExp("runtime/core/**/index.ts").test("runtime/core/index.ts")).toBe(true);
    expect(globRegExp("runtime/core/answer/*.ts").test("runtime/core/answer/stream/send.ts")).toBe(false);
    expect(globRegExp("runtime/{db,pages}/index.ts").test("runtime/pages/index.ts")).toBe(true);
    expect(globRegExp("runtime/{db,pages}/index.ts").test("runtime/auth/index.ts")).toBe(false);
  });
});
