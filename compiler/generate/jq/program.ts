// page.jq → JavaScript: an analysed program (compiler/jq/index.ts) becomes a function
// `(input, $params, $query) => unknown[]` (all outputs, in jq's order) that calls helpers
// from the runtime as `rt.jq.<name>`.

import type { CompiledJq } from "../../jq/index.js";
import { isSingle } from "./emit-builtins.js";
import { Emitter } from "./emit.js";

const HEADER = "(input: unknown, $params: Record<string, string>, $query: Record<string, string>): unknown[] =>";

/** The program as a TypeScript arrow function, indented to read as written code. */
export function emitJq({ ast, analysis }: CompiledJq): string {
  const wrap = (v: string) => (analysis.arithmetic ? `rt.jq.finite(${v})` : v);
  if (isSingle(ast)) {
    const em = new Emitter(analysis);
    const body = em.emit(ast, "input", (v) => `return [${wrap(v)}];`);
    // A `return` inside a shared continuation would return from that local function
    // instead; and straight-line code is only worth it when it ends in its one return.
    const lines = body.trim().split("\n");
    if (em.shared === 0 && lines[lines.length - 1].startsWith("return ")) return format(`${HEADER} {\n${body}\n}`);
  }
  const em = new Emitter(analysis);
  const body = em.emit(ast, "input", (v) => `out.push(${wrap(v)});`);
  return format(`${HEADER} {\nconst out: unknown[] = [];\n${body}\nreturn out;\n}`);
}

/** Indents by braces, so the generated server reads like code someone wrote. */
function format(code: string): string {
  let depth = 0;
  const out: string[] = [];
  for (const raw of code.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("}")) depth = Math.max(0, depth - 1);
    out.push("  ".repeat(depth) + line);
    if (line.endsWith("{")) depth++;
  }
  return out.join("\n");
}
