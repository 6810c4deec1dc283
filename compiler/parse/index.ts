// The parse phase: text → AST + diagnostics. Never throws: broken input yields a
// partial AST (every complete declaration, statement and field survives) and a
// diagnostic per problem.

import type { CstNode } from "chevrotain";
import { parseCodes } from "../diagnostics/codes/parse.js";
import { sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { ModuleFile, RouteFile } from "./ast.js";
import { AstBuilder } from "./build.js";
import type { BuildContext } from "./build-support.js";
import type { ModuleCstNode, RouteFileCstNode } from "./cst.js";
import { DocComments } from "./docs.js";
import { tokenize, type FileKind } from "./lexer.js";
import { parser } from "./parser.js";
import { PositionMap } from "./positions.js";
import { syntaxDiagnostics } from "./syntax-errors.js";

export type * from "./ast.js";

const builder = new AstBuilder();

/** Parses a module file (`*.svc` in a module folder). */
export function parseModule(file: string, text: string): { ast: ModuleFile; diagnostics: Diagnostic[] } {
  return run("module", file, text, (cst, c) => builder.module((cst as ModuleCstNode).children, c), (span) => ({
    kind: "ModuleFile",
    file,
    module: null,
    decls: [],
    span,
  }));
}

/** Parses a route file (`app/api/**\/route.svc`). */
export function parseRouteFile(file: string, text: string): { ast: RouteFile; diagnostics: Diagnostic[] } {
  return run("route", file, text, (cst, c) => builder.routeFile((cst as RouteFileCstNode).children, c), (span) => ({
    kind: "RouteFile",
    file,
    blocks: [],
    span,
  }));
}

function run<T>(
  kind: FileKind,
  file: string,
  text: string,
  build: (cst: CstNode, c: BuildContext) => T,
  empty: (span: ReturnType<PositionMap["span"]>) => T,
): { ast: T; diagnostics: Diagnostic[] } {
  const positions = new PositionMap(text);
  // Chevrotain signals every syntax error with an Error object; on a badly broken file
  // capturing their stack traces dominates the parse time, and nobody reads them.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const lexed = tokenize(kind, file, text, positions);
    parser.input = lexed.tokens;
    const cst = kind === "module" ? parser.module() : parser.routeFile();
    const syntax = syntaxDiagnostics(parser.errors, lexed.tokens, file, positions);
    const c: BuildContext = { file, text, positions, docs: new DocComments(lexed.docs, positions), diagnostics: [] };
    const ast = build(cst, c);
    const all = sortDiagnostics([...lexed.diagnostics, ...syntax.diagnostics, ...c.diagnostics]);
    return { ast, diagnostics: limit(all, lexed.truncated || syntax.truncated, file) };
  } catch (e) {
    // Neither a pathological file nor a bug in the parser may take the compiler down.
    const at = positions.span(0, 0);
    const diagnostic =
      e instanceof RangeError
        ? parseCodes.nestingTooDeep.at(file, at)
        : parseCodes.internalError.at(file, at, e instanceof Error ? e.message : String(e));
    return { ast: empty(positions.span(0, text.length)), diagnostics: [diagnostic] };
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
    parser.input = [];
  }
}

/** A garbage file would otherwise bury the terminal; past this many, one line says so. */
const MAX_DIAGNOSTICS = 50;

function limit(sorted: Diagnostic[], truncated: boolean, file: string): Diagnostic[] {
  if (!truncated && sorted.length <= MAX_DIAGNOSTICS) return sorted;
  const shown = sorted.slice(0, MAX_DIAGNOSTICS);
  const last = shown[shown.length - 1];
  return [...shown, parseCodes.tooManyErrors.at(file, last?.span ?? null, shown.length)];
}
