// Expressions, shared by module files and route files. Precedence, lowest first:
// or, and, not, comparison (non-associative), + -, * /, unary -, postfix (.member),
// primary. A call is `name(args)`; a record operation is `get|insert|update|delete R…`.
//
// An object literal is a primary, yet `if x == null { … }` works: no postfix or binary
// rule ever takes a `{`, so the expression ends before the if-block's brace.

import type { IParserConfig, TokenType } from "chevrotain";
import { CstParser, tokenMatcher } from "./chevrotain.js";
import {
  AdditiveOp, And, Colon, Comma, CompareOp, Delete, Dot, False, FloatLiteral, Get, Insert, IntLiteral,
  LBrace, LBracket, LParen, Minus, MultiplicativeOp, Name, Not, Null, Or, RBrace, RBracket, RParen,
  SoftName, StringLiteral, True, Update,
} from "./tokens.js";

export class ExpressionParser extends CstParser {
  constructor(tokens: TokenType[], config: IParserConfig) {
    super(tokens, config);
  }

  public expression = this.RULE("expression", () => {
    this.SUBRULE(this.andExpr, { LABEL: "operands" });
    this.MANY(() => {
      this.CONSUME(Or, { LABEL: "operators" });
      this.SUBRULE2(this.andExpr, { LABEL: "operands" });
    });
  });

  public andExpr = this.RULE("andExpr", () => {
    this.SUBRULE(this.notExpr, { LABEL: "operands" });
    this.MANY(() => {
      this.CONSUME(And, { LABEL: "operators" });
      this.SUBRULE2(this.notExpr, { LABEL: "operands" });
    });
  });

  public notExpr = this.RULE("notExpr", () => {
    this.OR({
      DEF: [
        {
          ALT: () => {
            this.CONSUME(Not);
            this.SUBRULE(this.notExpr, { LABEL: "operand" });
          },
        },
        { ALT: () => this.SUBRULE(this.comparison) },
      ],
      ERR_MSG: "an expression",
    });
  });

  /** Parsed as a list so that `a < b < c` gets a clear diagnostic instead of a bare syntax error. */
  public comparison = this.RULE("comparison", () => {
    this.SUBRULE(this.additive, { LABEL: "operands" });
    this.MANY(() => {
      this.CONSUME(CompareOp, { LABEL: "operators" });
      this.SUBRULE2(this.additive, { LABEL: "operands" });
    });
  });

  public additive = this.RULE("additive", () => {
    this.SUBRULE(this.multiplicative, { LABEL: "operands" });
    this.MANY(() => {
      this.CONSUME(AdditiveOp, { LABEL: "operators" });
      this.SUBRULE2(this.multiplicative, { LABEL: "operands" });
    });
  });

  public multiplicative = this.RULE("multiplicative", () => {
    this.SUBRULE(this.unary, { LABEL: "operands" });
    this.MANY(() => {
      this.CONSUME(MultiplicativeOp, { LABEL: "operators" });
      this.SUBRULE2(this.unary, { LABEL: "operands" });
    });
  });

  public unary = this.RULE("unary", () => {
    this.OR({
      DEF: [
        {
          ALT: () => {
            this.CONSUME(Minus);
            this.SUBRULE(this.unary, { LABEL: "operand" });
          },
        },
        { ALT: () => this.SUBRULE(this.postfix) },
      ],
      ERR_MSG: "an expression",
    });
  });

  public postfix = this.RULE("postfix", () => {
    this.SUBRULE(this.primary);
    this.MANY(() => {
      this.CONSUME(Dot);
      this.CONSUME(Name, { LABEL: "properties" });
    });
  });

  public primary = this.RULE("primary", () => {
    this.OR({
      DEF: [
        { ALT: () => this.CONSUME(StringLiteral) },
        { ALT: () => this.CONSUME(IntLiteral) },
        { ALT: () => this.CONSUME(FloatLiteral) },
        { ALT: () => this.CONSUME(True) },
        { ALT: () => this.CONSUME(False) },
        { ALT: () => this.CONSUME(Null) },
        { ALT: () => this.SUBRULE(this.nameOrCall) },
        { ALT: () => this.SUBRULE(this.parenExpr) },
        { ALT: () => this.SUBRULE(this.objectLiteral) },
        { ALT: () => this.SUBRULE(this.arrayLiteral) },
        { ALT: () => this.SUBRULE(this.recordOp) },
      ],
      ERR_MSG: "an expression",
    });
  });

  public nameOrCall = this.RULE("nameOrCall", () => {
    this.CONSUME(SoftName, { LABEL: "callee" });
    this.OPTION(() => {
      this.CONSUME(LParen);
      this.OPTION2(() => {
        this.SUBRULE(this.callArg, { LABEL: "args" });
        this.MANY(() => {
          this.CONSUME(Comma);
          this.SUBRULE2(this.callArg, { LABEL: "args" });
        });
        this.OPTION3(() => this.CONSUME2(Comma));
      });
      this.CONSUME(RParen);
    });
  });

  /** `name: value` for query calls, a bare value for built-ins; two tokens tell them apart. */
  public callArg = this.RULE("callArg", () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(Name, { LABEL: "argName" });
          this.CONSUME(Colon);
          this.SUBRULE(this.expression, { LABEL: "value" });
        },
      },
      { ALT: () => this.SUBRULE2(this.expression, { LABEL: "value" }) },
    ]);
  });

  public parenExpr = this.RULE("parenExpr", () => {
    this.CONSUME(LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(RParen);
  });

  /** Commas between entries are optional, so entries may stand one per line. */
  public objectLiteral = this.RULE("objectLiteral", () => {
    this.CONSUME(LBrace);
    // Gated on `name :` so that a broken entry ends the loop and recovery skips to the
    // next entry, keeping the ones after it.
    this.MANY({
      GATE: () => (tokenMatcher(this.LA(1), Name) && tokenMatcher(this.LA(2), Colon)) || tokenMatcher(this.LA(1), Dot),
      DEF: () => {
        this.OR([
          { ALT: () => this.SUBRULE(this.objectEntry, { LABEL: "entries" }) },
          { ALT: () => this.SUBRULE(this.objectSpread, { LABEL: "spreads" }) },
        ]);
        this.OPTION(() => this.CONSUME(Comma, { LABEL: "commas" }));
      },
    });
    this.CONSUME(RBrace);
  });

  public objectEntry = this.RULE("objectEntry", () => {
    this.CONSUME(Name, { LABEL: "key" });
    this.CONSUME(Colon);
    this.SUBRULE(this.expression, { LABEL: "value" });
  });

  /**
   * `...value` where an entry belongs: not part of the language, parsed whole so that the
   * builder reports it once (SVC7110) instead of the parser tripping over each dot.
   */
  public objectSpread = this.RULE("objectSpread", () => {
    this.CONSUME(Dot, { LABEL: "dots" });
    this.OPTION(() => this.CONSUME2(Dot, { LABEL: "dots" }));
    this.OPTION2(() => this.CONSUME3(Dot, { LABEL: "dots" }));
    this.SUBRULE(this.expression, { LABEL: "value" });
  });

  public arrayLiteral = this.RULE("arrayLiteral", () => {
    this.CONSUME(LBracket);
    this.OPTION(() => {
      this.SUBRULE(this.expression, { LABEL: "items" });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.expression, { LABEL: "items" });
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.CONSUME(RBracket);
  });

  public recordOp = this.RULE("recordOp", () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(Get, { LABEL: "op" });
          this.CONSUME(Name, { LABEL: "resource" });
          this.SUBRULE(this.recordKey, { LABEL: "key" });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Insert, { LABEL: "op" });
          this.CONSUME2(Name, { LABEL: "resource" });
          this.SUBRULE(this.objectLiteral, { LABEL: "fields" });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Update, { LABEL: "op" });
          this.CONSUME3(Name, { LABEL: "resource" });
          this.SUBRULE2(this.recordKey, { LABEL: "key" });
          this.SUBRULE2(this.objectLiteral, { LABEL: "fields" });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Delete, { LABEL: "op" });
          this.CONSUME4(Name, { LABEL: "resource" });
          this.SUBRULE3(this.recordKey, { LABEL: "key" });
        },
      },
    ]);
  });

  /** `(expr)`, or named key fields `(follower: a, followee: b)` (a key of several fields). */
  public recordKey = this.RULE("recordKey", () => {
    this.CONSUME(LParen);
    this.OR([
      {
        GATE: () => tokenMatcher(this.LA(1), Name) && tokenMatcher(this.LA(2), Colon),
        ALT: () => {
          this.SUBRULE(this.objectEntry, { LABEL: "named" });
          this.MANY(() => {
            this.CONSUME(Comma);
            this.SUBRULE2(this.objectEntry, { LABEL: "named" });
          });
          this.OPTION(() => this.CONSUME2(Comma));
        },
      },
      { ALT: () => this.SUBRULE(this.expression) },
    ]);
    this.CONSUME(RParen);
  });
}
