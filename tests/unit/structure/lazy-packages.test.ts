// Packages a server loads only when the app uses what they do. jose is 62 modules, about a
// third of what loading the runtime costs at start, and only a server with [auth.jwt] uses it:
// runtime/auth/jose.ts loads it then. A value import of it anywhere else would have every
// server load it again; type imports cost nothing at run time and are fine.

import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { expect, test } from "../../support/jest.js";
import { repoRoot } from "../../support/paths.js";
import { specifiersOf } from "./graph.js";

const LAZY: { name: string; loader: string }[] = [{ name: "jose", loader: "runtime/auth/jose.ts" }];

/** `text` without its `import type … from "…"` statements, which TypeScript erases. */
function valueImports(text: string): string[] {
  return specifiersOf(text.replace(/^\s*import\s+type\s[^;]*;/gm, ""));
}

const runtimeFiles = readdirSync(join(repoRoot, "runtime"), { recursive: true, encoding: "utf8" })
  .filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"))
  .map((p) => posix.join("runtime", p.split("\\").join("/")));

for (const lazy of LAZY) {
  test(`${lazy.name} is imported, as a value, by ${lazy.loader} alone`, () => {
    const importers = runtimeFiles.filter((file) => valueImports(readFileSync(join(repoRoot, file), "utf8")).some((s) => s === lazy.name || s.startsWith(`${lazy.name}/`)));
    expect(importers).toEqual([lazy.loader]);
  });
}

test("a type import is not a value import; a named or dynamic one is", () => {
  expect(valueImports('import type { JWTPayload } from "jose";\nimport { x } from "./x.js";')).toEqual(["./x.js"]);
  expect(valueImports('import { jwtVerify } from "jose";')).toEqual(["jose"]);
  expect(valueImports('const m = await import("jose");')).toEqual(["jose"]);
});
