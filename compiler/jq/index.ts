// page.jq at build time: a program in the compiled subset is analysed for the generator to
// emit as JavaScript (compiler/generate/jq/); any other valid program is left to jq-web; a
// program jq would reject is a diagnostic (for a fallback program, jq-web itself is asked).

import type { Span } from "../parse/ast.js";
import { PositionMap } from "../parse/positions.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { jqCodes } from "../diagnostics/codes/jq.js";
import { type Analysis, analyze, resolve, Unsupported } from "./analyze.js";
import type { JqNode } from "./ast.js";
import { checkWithJq } from "./jq-check.js";
import { parseJq } from "./parser.js";

/**
 * A program in the compiled subset, checked and analysed: the generator emits its JavaScript
 * (compiler/generate/jq/program.ts). Left out of the model's JSON snapshot, which shows the
 * program's text; server.ts shows what it compiles to.
 */
export class CompiledJq {
  constructor(
    readonly ast: JqNode,
    readonly analysis: Analysis,
  ) {}

  toJSON(): undefined {
    return undefined;
  }
}

export type JqCompileResult =
  | { kind: "compiled"; plan: CompiledJq }
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
    return { kind: "compiled", plan: new CompiledJq(parsed.ast, analyze(parsed.ast)) };
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
