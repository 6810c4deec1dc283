// The layout knows no construct by name: a grammar svc does not have (jobs, schedules,
// `enqueue`, `emit`), parsed by a parser written here on svc's own expression rules,
// lays out like the constructs svc has, with no change to the formatter.

import { describe, expect, test } from "../../support/jest.js";
import { layout } from "../../../compiler/fmt/layout.js";
import { describeSyntax } from "../../../compiler/fmt/syntax.js";
import { tokenize } from "../../../compiler/parse/lexer.js";
import { ExpressionParser } from "../../../compiler/parse/parser-expressions.js";
import { PositionMap } from "../../../compiler/parse/positions.js";
import { allTokens, Dot, IntLiteral, LBrace, Module, Name, RBrace, StringLiteral } from "../../../compiler/parse/tokens.js";

/**
 * module m
 * job NAME every N UNIT [retries N] { step* }          step: enqueue M.NAME {…} | emit NAME {…} | expression
 * schedule NAME "cron" => NAME
 */
class FutureParser extends ExpressionParser {
  constructor() {
    super(allTokens, { nodeLocationTracking: "full", maxLookahead: 3 });
    this.performSelfAnalysis();
  }

  public file = this.RULE("file", () => {
    this.CONSUME(Module);
    this.CONSUME(Name);
    this.MANY(() =>
      this.OR([
        { GATE: () => this.LA(1).image === "job", ALT: () => this.SUBRULE(this.jobDecl) },
        { GATE: () => this.LA(1).image === "schedule", ALT: () => this.SUBRULE(this.scheduleDecl) },
      ]),
    );
  });

  public jobDecl = this.RULE("jobDecl", () => {
    this.CONSUME(Name, { LABEL: "job" });
    this.CONSUME2(Name, { LABEL: "name" });
    this.CONSUME3(Name, { LABEL: "every" });
    this.CONSUME(IntLiteral);
    this.CONSUME4(Name, { LABEL: "unit" });
    this.OPTION({
      GATE: () => this.LA(1).image === "retries",
      DEF: () => {
        this.CONSUME5(Name, { LABEL: "retries" });
        this.CONSUME2(IntLiteral);
      },
    });
    this.CONSUME(LBrace);
    this.MANY(() => this.SUBRULE(this.step));
    this.CONSUME(RBrace);
  });

  public step = this.RULE("step", () => {
    this.OR([
      { GATE: () => this.LA(1).image === "enqueue", ALT: () => this.SUBRULE(this.enqueueStep) },
      { GATE: () => this.LA(1).image === "emit", ALT: () => this.SUBRULE(this.emitStep) },
      { ALT: () => this.SUBRULE(this.expression) },
    ]);
  });

  public enqueueStep = this.RULE("enqueueStep", () => {
    this.CONSUME(Name, { LABEL: "enqueue" });
    this.CONSUME2(Name, { LABEL: "module" });
    this.CONSUME(Dot);
    this.CONSUME3(Name, { LABEL: "job" });
    this.SUBRULE(this.objectLiteral);
  });

  public emitStep = this.RULE("emitStep", () => {
    this.CONSUME(Name, { LABEL: "emit" });
    this.CONSUME2(Name, { LABEL: "event" });
    this.SUBRULE(this.objectLiteral);
  });

  public scheduleDecl = this.RULE("scheduleDecl", () => {
    this.CONSUME(Name, { LABEL: "schedule" });
    this.CONSUME2(Name, { LABEL: "name" });
    this.CONSUME(StringLiteral);
    this.CONSUME3(Name, { LABEL: "job" });
  });
}

const parser = new FutureParser();

function format(text: string): string {
  const lexed = tokenize("module", "f.svc", text, new PositionMap(text));
  parser.input = lexed.tokens;
  const cst = parser.file();
  expect(parser.errors).toEqual([]);
  return layout(describeSyntax(text, lexed.tokens, lexed.docs, cst));
}

describe("constructs the formatter has not seen", () => {
  const formatted = [
    "module m",
    "",
    "# Nightly mail.",
    "job nightly every 1d retries 3 {",
    "  enqueue mail.send { to: user.email, subject: \"Hello\" }",
    "  emit sent {",
    "    count: 1 + 2,",
    "    at: now()",
    "  }",
    "  log(\"done\")",
    "}",
    'schedule cleanup "0 3 * * *" nightly',
    "",
  ].join("\n");

  test("a badly laid out file of them comes out laid out as svc's own constructs are", () => {
    const messy = [
      "module m",
      "",
      "",
      "   # Nightly mail.",
      "job   nightly every 1d retries 3",
      "{ enqueue mail . send {to:user.email,subject:\"Hello\"}",
      "        emit sent {",
      "count:1+2,",
      "at:now( ) }",
      "log (\"done\") }",
      '    schedule cleanup "0 3 * * *"   nightly',
    ].join("\n");
    expect(format(messy)).toBe(formatted);
  });

  test("and is a fixed point", () => {
    expect(format(formatted)).toBe(formatted);
  });
});
