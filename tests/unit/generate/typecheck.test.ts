// The typed server type-checks: every golden server.ts, with the sql.ts it imports, compiles under `tsc --strict`
// against the runtime's shipped declarations, resolved as a user's project resolves
// them (`svc/runtime` through package.json's exports, `types` condition), so an editor
// or a user's own `tsc --noEmit` sees real types, not `any`.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../../support/jest.js";
import ts from "typescript";
import { repoRoot } from "../../support/paths.js";

const FIXTURES = join(repoRoot, "fixtures");
const servers = readdirSync(FIXTURES)
  .map((c) => join(FIXTURES, c, "expected", "server.ts"))
  .filter((f) => existsSync(f))
  .sort();

describe("generated server.ts under tsc --strict", () => {
  test("the runtime ships declarations where package.json says", () => {
    const resolved = ts.resolveModuleName("svc/runtime", servers[0], options(), ts.sys).resolvedModule;
    expect(resolved?.resolvedFileName).toBe(join(repoRoot, "build", "runtime", "index.d.ts"));
  });

  test("every golden server.ts type-checks, with its sql.ts", () => {
    expect(servers.length).toBeGreaterThanOrEqual(10);
    // server.ts imports sql.ts: the program holds both.
    const sqlFiles = servers.map((f) => join(f, "..", "sql.ts")).filter((f) => existsSync(f));
    expect(sqlFiles.length).toBeGreaterThanOrEqual(10);
    const program = ts.createProgram(servers, options());
    for (const f of sqlFiles) expect(program.getSourceFile(f)).toBeDefined();
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${d.file.fileName.slice(repoRoot.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
      return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(diagnostics).toEqual([]);
  });
});

/** What `tsc --strict --noEmit` uses for a Node ES module project. */
function options(): ts.CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    typeRoots: [join(repoRoot, "node_modules", "@types")],
    skipLibCheck: true,
  };
}
