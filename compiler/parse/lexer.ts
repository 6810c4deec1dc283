import type { ILexerConfig, ILexingError, IToken, TokenType } from "chevrotain";
import { Lexer } from "./chevrotain.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { parseCodes } from "../diagnostics/codes/parse.js";
import type { PositionMap } from "./positions.js";
import type { SqlScan } from "./sql-scan.js";
import { evolveCodes } from "../diagnostics/codes/evolve.js";
import { moduleFileTokens, routeFileTokens, SqlBody, SqlParens, UnterminatedString } from "./tokens.js";

const config = {
  positionTracking: "full" as const,
  // Pattern checks run in a test (buildLexer with validation); at runtime they only cost time.
  skipValidations: true,
  // Lines break at "\n" only, as in PositionMap and the diagnostic renderer.
  lineTerminatorsPattern: /\n/g,
  lineTerminatorCharacters: ["\n"],
} satisfies ILexerConfig;

export type FileKind = "module" | "route";

/**
 * One lexer, one mode per file kind (route files have no SQL bodies). `validate` also
 * checks the token patterns and that the first-character optimization applies.
 */
export function buildLexer({ validate }: { validate: boolean }): InstanceType<typeof Lexer> {
  const definition = { modes: { module: moduleFileTokens, route: routeFileTokens }, defaultMode: "module" };
  return new Lexer(definition, validate ? { ...config, skipValidations: false, ensureOptimizations: true } : config);
}

// Built once: constructing a lexer analyses every pattern.
const lexer = buildLexer({ validate: false });

export interface LexResult {
  tokens: IToken[];
  /** `///` comments in source order. */
  docs: IToken[];
  diagnostics: Diagnostic[];
  /** Whether invalid characters went unreported (past MAX_LEXING_DIAGNOSTICS). */
  truncated: boolean;
}

/** Above this many invalid characters the file is probably not text; the rest go unreported. */
const MAX_LEXING_DIAGNOSTICS = 20;

export function tokenize(kind: FileKind, file: string, text: string, positions: PositionMap): LexResult {
  const result = lexer.tokenize(text, kind);
  const diagnostics = lexingDiagnostics(result.errors, file, text, positions);
  for (const token of result.tokens) {
    const d = tokenDiagnostic(token, file, positions);
    if (d) diagnostics.push(d);
  }
  return {
    tokens: result.tokens,
    docs: result.groups.docs ?? [],
    diagnostics,
    truncated: result.errors.length > MAX_LEXING_DIAGNOSTICS,
  };
}

function lexingDiagnostics(errors: ILexingError[], file: string, text: string, positions: PositionMap): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const e of errors.slice(0, MAX_LEXING_DIAGNOSTICS)) {
    const chars = text.slice(e.offset, e.offset + Math.min(e.length, 8));
    out.push(parseCodes.invalidCharacter.at(file, positions.span(e.offset, e.offset + e.length), chars));
  }
  return out;
}

function tokenDiagnostic(token: IToken, file: string, positions: PositionMap): Diagnostic | null {
  const type: TokenType = token.tokenType;
  if (type === UnterminatedString) {
    return parseCodes.unterminatedString.at(file, positions.span(token.startOffset, token.endOffset! + 1));
  }
  if (type === SqlBody && !(token.payload as SqlScan).terminated) {
    // Point at the opening brace: that is the one missing its partner.
    return parseCodes.unterminatedSql.at(file, positions.span(token.startOffset, token.startOffset + 1));
  }
  if (type === SqlParens && !(token.payload as SqlScan).terminated) {
    return evolveCodes.unterminatedSqlParens.at(file, positions.span(token.startOffset, token.startOffset + 1));
  }
  return null;
}
