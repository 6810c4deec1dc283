// Whether one space or none separates two tokens on one line. Decided by the tokens'
// kinds and the CST node they sit in, never by a construct's name, so a new declaration
// or statement is spaced like the ones before it.

import type { CstNode, IToken, TokenType } from "chevrotain";
import {
  Colon, Comma, Dot, FloatLiteral, Gt, Identifier, IntLiteral, LBrace, LBracket, LParen, Lt, MethodName, Minus,
  Name, Question, RBrace, RBracket, RParen, SoftName,
} from "../parse/tokens.js";
import type { Syntax } from "./syntax.js";

function is(token: IToken, type: TokenType): boolean {
  return token.tokenType === type || (token.tokenType.CATEGORIES?.includes(type) ?? false);
}

/** A keyword that can never be a name (`let`, `if`, `and`, `in`…). */
function isReserved(token: IToken): boolean {
  return is(token, Name) && !is(token, SoftName);
}

/** A keyword that is a name where the grammar expects one (`index`, `key`, `respond`…). */
function isSoftKeyword(token: IToken): boolean {
  return is(token, SoftName) && token.tokenType !== Identifier && token.tokenType !== MethodName;
}

/** A name in the role of a name (a callee, a field, a type), not a reserved word. */
function isPlainName(token: IToken): boolean {
  return is(token, SoftName);
}

/** What a member access, `?` or a call may directly follow. */
function endsOperand(token: IToken): boolean {
  return (
    isPlainName(token) ||
    [IntLiteral, FloatLiteral, RParen, RBracket, RBrace, Question, Dot].some((t) => is(token, t)) ||
    token.tokenType.name === "ClosedString"
  );
}

function parentName(syntax: Syntax, token: IToken): string | undefined {
  return syntax.parentOf.get(token)?.name;
}

/** `<` and `>` outside a comparison are the brackets of a type (`list<text>`). */
function isTypeBracket(syntax: Syntax, token: IToken): boolean {
  return (token.tokenType === Lt || token.tokenType === Gt) && parentName(syntax, token) !== "comparison";
}

function startsItsNode(syntax: Syntax, token: IToken, node: CstNode | undefined): boolean {
  return node !== undefined && (syntax.startsAt.get(token) ?? []).includes(node);
}

/**
 * A `(` hugs what it follows when that is called or declared (`f(x)`, `query q(`,
 * `get article(id)`, `enum(`), and stands apart after a word that opens a construct
 * (`if (`, `and (`, `index (`, `key (`).
 */
function hugsParen(syntax: Syntax, before: IToken): boolean {
  if (isReserved(before)) return false;
  if (isSoftKeyword(before)) {
    const parent = syntax.parentOf.get(before);
    return parent?.name === "nameOrCall" || !startsItsNode(syntax, before, parent);
  }
  return isPlainName(before) || is(before, RParen) || is(before, RBracket);
}

/** `a` and `b` are adjacent tokens on one output line; `spaced` says whether the source had space between them. */
export function spaceBetween(syntax: Syntax, a: IToken, b: IToken, spaced: boolean): boolean {
  if (is(b, Comma) || is(b, Colon)) return false;
  if (is(a, Comma) || is(a, Colon)) return true;
  if (is(a, Dot)) return false;
  if (is(b, Dot)) return !endsOperand(a) && !is(a, LParen) && !is(a, LBracket);
  if (is(a, LParen) || is(a, LBracket) || is(b, RParen) || is(b, RBracket)) return false;
  if (is(a, LBrace)) return !is(b, RBrace);
  if (is(b, RBrace)) return true;
  if (is(b, LParen)) return !hugsParen(syntax, a);
  if (is(b, LBracket)) return !(isPlainName(a) || is(a, RParen) || is(a, RBracket));
  // `?` marks a type optional: `text?`, `list<text>?`, `list<text> max 20?`, `T??`.
  if (is(b, Question)) return !(endsOperand(a) || is(a, Gt));
  if (isTypeBracket(syntax, b) && b.tokenType === Lt) return false;
  if (isTypeBracket(syntax, a) && a.tokenType === Lt) return false;
  if (isTypeBracket(syntax, b) && b.tokenType === Gt) return false;
  if (is(a, Minus) && parentName(syntax, a) === "unary") return false;
  // `per 1m` lexes as `1` and `m`: a number and the word stuck to it stay stuck.
  if ((is(a, IntLiteral) || is(a, FloatLiteral)) && is(b, Name) && !spaced) return false;
  return true;
}
