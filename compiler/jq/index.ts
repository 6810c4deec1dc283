// page.jq → JavaScript at build time. A program in the compiled subset becomes a function
// `(input, $params, $query) => unknown[]` (all outputs, in jq's order) that calls helpers
// from the runtime as `rt.jq.<name>`; any other valid program is left to jq-web; a
// program jq would reject is a diagnostic (for a fallback program, jq-web itself is asked).

import type { Span } from "../parse/ast.js";
import { PositionMap } from "../parse/positions.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { jqCodes } from "../diagnostics/codes/jq.js";
import { analyze, resolve, Unsupported } from "./analyze.js";
import { Emitter } from "./emit.js";
import { isSingle } from "./emit-builtins.js";
import { checkWithJq } from "./jq-check.js";
import { parseJq } from "./parser.js";

export type JqCompileResult =
  | { kind: "compiled"; source: string }
  | { kind: "fallback"; reason: string; program: string }
  | { kind: "error"; diagnostics: Diagnostic[] };

export function compileJq(file: string, program: string): JqCompileResult {
  const parsed = parseJq(program);
  if (!parsed.ok) return { kind: "error", diagnostics: [jqCodes.syntax.at(file, parsed.span, parsed.message)] };
  // The server wraps the program to bind $params and $query, and gives jq no library path.
  if (parsed.ast.kind === "Module") return { kind: "error", diagnostics: [jqCodes.moduleDirective.at(file, parsed.ast.span, parsed.ast.what)] };
  // Long operator chains (`1 + 1 + … `) nest without bound in the AST; analysis and emission recurse.
  if (depth(parsed.ast) > MAX_DEPTH) {
    return { kind: "error", diagnostics: [jqCodes.syntax.at(file, parsed.ast.span, `the program nests deeper than ${MAX_DEPTH} levels`)] };
  }
  const hasDefs = program.includes("def") && containsDef(parsed.ast);
  if (!hasDefs) {
    const problems = resolve(parsed.ast);
    if (problems.length > 0) {
      return {
        kind: "error",
        diagnostics: problems.map((p) => {
          if (p.kind === "unknownFunction") return jqCodes.unknownFunction.at(file, p.span, p.name, p.arity, p.near);
          if (p.kind === "unknownVariable") return jqCodes.unknownVariable.at(file, p.span, p.name);
          return jqCodes.nonStringKey.at(file, p.span, p.found);
        }),
      };
    }
  }
  try {
    const analysis = analyze(parsed.ast);
    return { kind: "compiled", source: emitProgram(parsed.ast, analysis) };
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    const check = checkWithJq(program);
    if (check.ok === false) {
      return { kind: "error", diagnostics: check.errors.map((err) => jqCodes.jqRefused.at(file, lineSpan(program, err.line ?? 1), err.message)) };
    }
    return { kind: "fallback", reason: e.message, program };
  }
}

/** Line `line` (1-based) of `text`, without its line break: jq names lines, not columns. */
function lineSpan(text: string, line: number): Span {
  const lines = new PositionMap(text);
  const start = lines.offset(line, 1);
  const end = text.indexOf("\n", start);
  return lines.span(start, end === -1 ? text.length : end);
}

const MAX_DEPTH = 400;

/** The AST's depth, walked with an explicit stack so that a deep tree cannot overflow it. */
function depth(root: object): number {
  let max = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    if (n === null || typeof n !== "object") continue;
    if (d > max) max = d;
    if (max > MAX_DEPTH) return max;
    for (const v of Object.values(n)) if (v !== null && typeof v === "object") stack.push([v, d + 1]);
  }
  return max;
}

function containsDef(n: unknown): boolean {
  if (n === null || typeof n !== "object") return false;
  if ((n as { kind?: string }).kind === "FuncDef") return true;
  return Object.values(n as object).some((v) => (Array.isArray(v) ? v.some(containsDef) : containsDef(v)));
}

const HEADER = "(input: any, $params: any, $query: any): unknown[] =>";

function emitProgram(ast: Parameters<typeof isSingle>[0], analysis: ConstructorParameters<typeof Emitter>[0]): string {
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
