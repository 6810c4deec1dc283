// The generator pastes compiled programs into server.ts: each must type-check there under
// the project's strict settings, with `rt.jq` being runtime/jq/index.ts.

import { join } from "node:path";
import { describe, expect, test } from "../../support/jest.js";
import ts from "typescript";
import { emitJq } from "../../../compiler/generate/jq/program.js";
import { compileJq } from "../../../compiler/jq/index.js";
import { repoRoot } from "../../support/paths.js";
import { PAGE_PROGRAMS, SUBSET_PROGRAMS } from "./programs.js";

describe("emitted source", () => {
  test("type-checks strictly as TypeScript with rt.jq in scope", () => {
    const file = join(repoRoot, "tests", "unit", "jq", "__emitted__.ts");
    const consts = [...PAGE_PROGRAMS, ...SUBSET_PROGRAMS].map((program, i) => {
      const r = compileJq("app/page.jq", program);
      if (r.kind !== "compiled") throw new Error(`${program} did not compile`);
      return `export const program${i} = ${emitJq(r.plan)};`;
    });
    const text = `import * as jq from "../../../runtime/jq/index.js";\nconst rt = { jq };\n${consts.join("\n")}\n`;
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      lib: ["lib.es2023.d.ts"],
      verbatimModuleSyntax: true,
    };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, lang, onError) => (name === file ? ts.createSourceFile(name, text, lang) : read(name, lang, onError));
    const exists = host.fileExists.bind(host);
    host.fileExists = (name) => name === file || exists(name);
    const program = ts.createProgram([file], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === file)
      .map((d) => `${d.file?.getLineAndCharacterOfPosition(d.start ?? 0).line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(problems).toEqual([]);
  });

  test("is deterministic and readable for the spec's page loaders", () => {
    const a = compileJq("app/tasks/page.jq", "{records: .records}");
    const b = compileJq("app/tasks/page.jq", "{records: .records}");
    if (a.kind !== "compiled" || b.kind !== "compiled") throw new Error("expected both to compile");
    expect(emitJq(a.plan)).toBe(emitJq(b.plan));
    expect(emitJq(a.plan)).toBe(
      [
        "(input: unknown, $params: Record<string, string>, $query: Record<string, string>): unknown[] => {",
        '  const v1 = rt.jq.index(input, "records");',
        '  const o2 = { "records": v1 };',
        "  return [o2];",
        "}",
      ].join("\n"),
    );
  });
});
