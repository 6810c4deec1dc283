// Parse errors in plain words. Chevrotain's own messages name token types and rule
// names; these name what a user writes. The provider returns only the "expected …"
// part: the diagnostic adds what was found (see describeFound).

import type { IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";
import { EOF } from "./chevrotain.js";
import { FloatLiteral, Identifier, IntLiteral, Name, RBrace, SqlBody, StringLiteral } from "./tokens.js";

/** What a start rule expects when something is left over after its last complete item. */
const afterLastItem: Record<string, string> = {
  module: "a declaration (resource, query, action, fn, type, route or webhook)",
  routeFile: "a method block such as GET { … }",
};

/** The items of brace-delimited lists, for "expected a field or \"}\"". */
const itemsBeforeBrace: Record<string, string> = {
  resourceDecl: "a field, index or drop,",
  objectLiteral: "an entry `name: value`,",
  block: "a statement,",
  methodBlock: "a step (limit, query, invoke, fetch, respond or redirect),",
};

/** Above this many alternatives a list reads worse than a description. */
const MAX_LISTED = 6;

export const plainErrorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, ruleName }) {
    if (expected === EOF) return afterLastItem[ruleName] ?? "end of file";
    // A "}" closing a list of items is reported when no further item could start.
    if (expected === RBrace && ruleName in itemsBeforeBrace) return `${itemsBeforeBrace[ruleName]} or "}"`;
    return label(expected);
  },
  buildNotAllInputParsedMessage({ ruleName }) {
    return afterLastItem[ruleName] ?? "end of file";
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, customUserDescription }) {
    return customUserDescription ?? listFirstTokens(expectedPathsPerAlt.flat());
  },
  buildEarlyExitMessage({ expectedIterationPaths, customUserDescription }) {
    return customUserDescription ?? listFirstTokens(expectedIterationPaths);
  },
};

function label(t: TokenType): string {
  if (t === EOF) return "end of file";
  return t.LABEL ?? t.name;
}

function listFirstTokens(paths: TokenType[][]): string {
  const labels = [...new Set(paths.filter((p) => p.length > 0).map((p) => label(p[0])))];
  if (labels.length === 0) return "something else";
  if (labels.length > MAX_LISTED) return `${labels.slice(0, MAX_LISTED).join(", ")} or similar`;
  if (labels.length === 1) return labels[0];
  return `${labels.slice(0, -1).join(", ")} or ${labels[labels.length - 1]}`;
}

/** How an error message names the token it stumbled on. */
export function describeFound(token: IToken): string {
  const t = token.tokenType;
  if (t === EOF) return "end of file";
  if (t === Identifier) return `name ${JSON.stringify(token.image)}`;
  if (t === SqlBody) return "an SQL body";
  if (t === IntLiteral || t === FloatLiteral) return `number ${token.image}`;
  if (t.CATEGORIES?.includes(StringLiteral)) {
    const shown = token.image.length > 24 ? `${token.image.slice(0, 20)}…"` : token.image;
    return `string ${shown}`;
  }
  if (t.CATEGORIES?.includes(Name)) return `keyword ${JSON.stringify(token.image)}`;
  return JSON.stringify(token.image);
}
