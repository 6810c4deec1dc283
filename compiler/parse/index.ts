// The parse phase: text → AST + diagnostics. Never throws: broken input yields a
// partial AST (every complete declaration, statement and field survives) and a
// diagnostic per problem.

import type { CstNode, IToken } from "chevrotain";
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
  const parsed = parseCst(kind, file, text, positions);
  if ("failure" in parsed) return { ast: empty(positions.span(0, text.length)), diagnostics: [parsed.failure] };
  try {
    const c: BuildContext = { file, text, positions, docs: new DocComments(parsed.docs, positions), diagnostics: [] };
    const ast = build(parsed.cst, c);
    const all = sortDiagnostics([...parsed.diagnostics, ...c.diagnostics]);
    return { ast, diagnostics: limit(all, parsed.truncated, file) };
  } catch (e) {
    return { ast: empty(positions.span(0, text.length)), diagnostics: [failure(e, file, positions)] };
  }
}

export interface ParsedCst {
  cst: CstNode;
  tokens: IToken[];
  /** `///` comments in source order. */
  docs: IToken[];
  /** Lexing and syntax errors, sorted. */
  diagnostics: Diagnostic[];
  truncated: boolean;
}

/**
 * Lexing and parsing without the AST: the CST and its tokens (`svc fmt` lays files out
 * from them). Never throws: a file that takes the parser down is one diagnostic.
 */
export function parseCst(
  kind: FileKind,
  file: string,
  text: string,
  positions = new PositionMap(text),
): ParsedCst | { failure: Diagnostic } {
  // Chevrotain signals every syntax error with an Error object; on a badly broken file
  // capturing their stack traces dominates the parse time, and nobody reads them.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const lexed = tokenize(kind, file, text, positions);
    parser.input = lexed.tokens;
    const cst = kind === "module" ? parser.module() : parser.routeFile();
    const syntax = syntaxDiagnostics(parser.errors, lexed.tokens, file, positions);
    return {
      cst,
      tokens: lexed.tokens,
      docs: lexed.docs,
      diagnostics: sortDiagnostics([...lexed.diagnostics, ...syntax.diagnostics]),
      truncated: lexed.truncated || syntax.truncated,
    };
  } catch (e) {
    return { failure: failure(e, file, positions) };
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
    parser.input = [];
  }
}

/** Neither a pathological file nor a bug in the parser may take the compiler down. */
function failure(e: unknown, file: string, positions: PositionMap): Diagnostic {
  const at = positions.span(0, 0);
  return e instanceof RangeError
    ? parseCodes.nestingTooDeep.at(file, at)
    : parseCodes.internalError.at(file, at, e instanceof Error ? e.message : String(e));
}

/** A garbage file would otherwise bury the terminal; past this many, one line says so. */
const MAX_DIAGNOSTICS = 50;

function limit(sorted: Diagnostic[], truncated: boolean, file: string): Diagnostic[] {
  if (!truncated && sorted.length <= MAX_DIAGNOSTICS) return sorted;
  const shown = sorted.slice(0, MAX_DIAGNOSTICS);
  const last = shown[shown.length - 1];
  return [...shown, parseCodes.tooManyErrors.at(file, last?.span ?? null, shown.length)];
}
