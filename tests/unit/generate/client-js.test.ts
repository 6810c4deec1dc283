// client.js is written from the model beside client.ts, not transpiled from it (a cold
// transpile cost a build more than the rest of both outputs). Here the two are held to the
// same code: client.ts with its types removed by TypeScript, and client.js, print the same
// once comments and layout are set aside; and the template pair behind their fixed part too.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../../support/jest.js";
import ts from "typescript";
import { build, formatDiagnostics } from "../../../compiler/index.js";
import { transpile } from "../../../compiler/generate/index.js";
import { resolveTarget } from "../../../compiler/cli/target.js";
import type { DiscoverTarget } from "../../../compiler/project/discover.js";
import { repoRoot } from "../../support/paths.js";

/**
 * The code of a JavaScript module: printed by TypeScript without comments, then without
 * layout (white space, and the trailing commas of broken lines) which the printer keeps.
 */
function code(js: string): string {
  const file = ts.createSourceFile("x.js", js, ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS);
  return ts
    .createPrinter({ removeComments: true })
    .printFile(file)
    .replace(/\s+/g, "")
    .replace(/,([}\]])/g, "$1");
}

function fixture(name: string): DiscoverTarget {
  const target = resolveTarget({ positional: join(repoRoot, "fixtures", name, "input") });
  if (typeof target === "string") throw new Error(target);
  return target;
}

const targets: [string, DiscoverTarget][] = [
  ...["task_tracker", "accounts", "conduit"].map((n): [string, DiscoverTarget] => [n, { mode: "project", dir: join(repoRoot, "examples", n) }]),
  ["respond-routes", fixture("respond-routes")],
];

describe("client.js", () => {
  test.each(targets)("of %s is client.ts without its types", async (_name, target) => {
    const result = await build(target, { runtimeImport: "svc/runtime" });
    if (result.files.length === 0) throw new Error(formatDiagnostics(result));
    const file = (p: string) => String(result.files.find((f) => f.path === p)?.contents);
    expect(code(file("client.js"))).toBe(code(transpile(file("client.ts"))));
  });

  test("the fixed part: templates/client/runtime.js is runtime.ts without its types", () => {
    const template = (name: string) => readFileSync(join(repoRoot, "templates", "client", name), "utf8");
    expect(code(template("runtime.js"))).toBe(code(transpile(template("runtime.ts"))));
  });
});
