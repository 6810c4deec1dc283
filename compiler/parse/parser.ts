// The grammar of module files (start rule `module`) and route files (start rule
// `routeFile`), on top of the shared expression rules. Newlines mean nothing: items
// are juxtaposed, and every rule ends where its last token makes the end clear.

import type { IToken } from "chevrotain";
import { tokenMatcher } from "./chevrotain.js";
import { plainErrorMessages } from "./error-messages.js";
import { ExpressionParser } from "./parser-expressions.js";
import {
  Action, allTokens, Arrow, Fn, Private, Public, Asc, Auth, Colon, Comma, Delete, Desc, Dot, Else, Equals, Fail, False, Fetch,
  FloatLiteral, Get, If, Index, Key, Minus, Insert, IntLiteral, Invoke, LBrace, LBracket, Let, LParen, MethodName, Module, Name,
  Not, Null, One, Query, Question, RBrace, Redirect, Requires, Resource, Respond, Header, Return, Role, Limit, Per, By, Burst, Route, Unsafe, Transaction,
  RParen, SoftName, Sql, SqlBody, StringLiteral, True, Unique, Update, Webhook,
  For, Gt, In, Lt, Max, Type, Yield, Enqueue, Job, Schedule, Event, Emit,
  Renamed, From, Changed, Using, Back, Lossy, Backfill, Drop, SqlParens,
} from "./tokens.js";

export class SvcParser extends ExpressionParser {
  /**
   * `validate` runs Chevrotain's grammar checks (ambiguities, left recursion…). They cost
   * more than the rest of construction, so the shared instance skips them and a test
   * builds a validated one.
   */
  constructor({ validate }: { validate: boolean }) {
    super(allTokens, {
      skipValidations: !validate,
      recoveryEnabled: true,
      nodeLocationTracking: "full",
      maxLookahead: 3,
      errorMessageProvider: plainErrorMessages,
    });
    this.performSelfAnalysis();
  }

  // ------------------------------------------------------------ module files

  public module = this.RULE("module", () => {
    this.OPTION(() => {
      this.CONSUME(Module);
      this.CONSUME(Name, { LABEL: "moduleName" });
    });
    this.MANY(() => this.SUBRULE(this.declaration, { LABEL: "declarations" }));
  });

  public declaration = this.RULE("declaration", () => {
    this.OR({
      DEF: [
        { ALT: () => this.SUBRULE(this.resourceDecl) },
        { ALT: () => this.SUBRULE(this.queryDecl) },
        { ALT: () => this.SUBRULE(this.actionDecl) },
        { ALT: () => this.SUBRULE(this.routeDecl) },
        { ALT: () => this.SUBRULE(this.webhookDecl) },
        { ALT: () => this.SUBRULE(this.typeDecl) },
        { ALT: () => this.SUBRULE(this.eventDecl) },
        { ALT: () => this.SUBRULE(this.visibleDecl) },
        { ALT: () => this.SUBRULE(this.fnDecl) },
        { ALT: () => this.SUBRULE(this.jobDecl) },
        { ALT: () => this.SUBRULE(this.scheduleDecl) },
        { ALT: () => this.SUBRULE(this.dropResourceDecl) },
      ],
      ERR_MSG: "a declaration (resource, type, event, query, action, job, schedule, route, webhook, fn or drop resource)",
    });
  });

  public resourceDecl = this.RULE("resourceDecl", () => {
    this.CONSUME(Resource);
    this.CONSUME(Name);
    this.CONSUME(LBrace);
    // The gate looks at two tokens, so a broken member ends the loop instead of failing
    // inside it; Chevrotain then skips to the next member (or "}") and the fields after
    // the broken one survive.
    this.MANY({
      GATE: () => startsMember(this.LA(1), this.LA(2)),
      DEF: () => {
        this.OR([
          { ALT: () => this.SUBRULE(this.indexDecl, { LABEL: "members" }) },
          { ALT: () => this.SUBRULE(this.keyDecl, { LABEL: "members" }) },
          { ALT: () => this.SUBRULE(this.dropColumn, { LABEL: "members" }) },
          { ALT: () => this.SUBRULE(this.fieldDecl, { LABEL: "members" }) },
        ]);
      },
    });
    this.CONSUME(RBrace);
  });

  /**
   * A resource field: a binding, then how it changed (docs/language.md §2.1, Changing a
   * resource), each clause optional, in this order.
   */
  public fieldDecl = this.RULE("fieldDecl", () => {
    this.SUBRULE(this.binding);
    // Each clause only where its keyword is not a field's name (`back: bool` on the next line).
    this.OPTION({
      GATE: this.clauseAhead,
      DEF: () => {
        this.CONSUME(Renamed);
        this.CONSUME(From);
        this.CONSUME(Name, { LABEL: "renamedFrom" });
      },
    });
    this.OPTION2({
      GATE: this.clauseAhead,
      DEF: () => {
        this.CONSUME(Changed);
        this.CONSUME2(From);
        this.SUBRULE(this.typeRef, { LABEL: "changedFrom" });
      },
    });
    this.OPTION3({
      GATE: this.clauseAhead,
      DEF: () => {
        this.CONSUME(Using);
        this.CONSUME(SqlParens, { LABEL: "using" });
      },
    });
    this.OPTION4({
      GATE: this.clauseAhead,
      DEF: () => {
        this.CONSUME(Back);
        this.CONSUME2(SqlParens, { LABEL: "back" });
      },
    });
    this.OPTION5({ GATE: this.clauseAhead, DEF: () => this.CONSUME(Lossy) });
    this.OPTION6({
      GATE: this.clauseAhead,
      DEF: () => {
        this.CONSUME(Backfill);
        this.OR([
          { ALT: () => this.CONSUME3(SqlParens, { LABEL: "backfillSql" }) },
          { ALT: () => this.SUBRULE(this.expression, { LABEL: "backfillValue" }) },
        ]);
      },
    });
  });

  private readonly clauseAhead = (): boolean => !tokenMatcher(this.LA(2), Colon);

  /** `drop legacy_notes`: a column the resource no longer declares, dropped with its data. */
  public dropColumn = this.RULE("dropColumn", () => {
    this.CONSUME(Drop);
    this.CONSUME(Name);
  });

  /** `drop resource audit_old`: a table dropped with its data. */
  public dropResourceDecl = this.RULE("dropResourceDecl", () => {
    this.CONSUME(Drop);
    this.CONSUME(Resource);
    this.CONSUME(Name);
  });

  public indexDecl = this.RULE("indexDecl", () => {
    this.OR([{ ALT: () => this.CONSUME(Index) }, { ALT: () => this.CONSUME(Unique) }]);
    this.CONSUME(LParen);
    this.SUBRULE(this.indexColumn, { LABEL: "columns" });
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.indexColumn, { LABEL: "columns" });
    });
    this.OPTION(() => this.CONSUME2(Comma));
    this.CONSUME(RParen);
    // `unique (username) fail 422 "username has already been taken"`: what a violation answers.
    this.OPTION2(() => {
      this.CONSUME(Fail);
      this.OPTION3(() => this.CONSUME(IntLiteral, { LABEL: "status" }));
      this.OPTION4(() => this.CONSUME(StringLiteral, { LABEL: "message" }));
    });
  });

  /** `key (follower, followee)`: the primary key, of one field or several. */
  public keyDecl = this.RULE("keyDecl", () => {
    this.CONSUME(Key);
    this.CONSUME(LParen);
    this.CONSUME(Name, { LABEL: "columns" });
    this.MANY(() => {
      this.CONSUME(Comma);
      this.CONSUME2(Name, { LABEL: "columns" });
    });
    this.OPTION(() => this.CONSUME2(Comma));
    this.CONSUME(RParen);
  });

  public indexColumn = this.RULE("indexColumn", () => {
    this.CONSUME(Name);
    this.OPTION(() => {
      this.OR([{ ALT: () => this.CONSUME(Desc) }, { ALT: () => this.CONSUME(Asc) }]);
    });
  });

  /** `name: type[?] [= default]`: a resource field or a parameter. */
  public binding = this.RULE("binding", () => {
    this.CONSUME(Name);
    this.CONSUME(Colon);
    this.SUBRULE(this.typeRef);
    this.OPTION(() => {
      this.CONSUME(Equals);
      this.SUBRULE(this.expression, { LABEL: "default" });
    });
  });

  public typeRef = this.RULE("typeRef", () => {
    this.CONSUME(Name, { LABEL: "typeName" });
    this.OPTION(() => {
      this.CONSUME(LParen);
      this.OPTION2(() => {
        this.CONSUME2(Name, { LABEL: "values" });
        this.MANY(() => {
          this.CONSUME(Comma);
          this.CONSUME3(Name, { LABEL: "values" });
        });
        this.OPTION3(() => this.CONSUME2(Comma));
      });
      this.CONSUME(RParen);
    });
    this.OPTION5(() => this.SUBRULE(this.listItem));
    // `T?` may be null; `T??` may also be absent, a state of its own (§2.3, Absent arguments).
    this.OPTION4(() => {
      this.CONSUME(Question);
      this.OPTION6(() => this.CONSUME2(Question));
    });
  });

  /**
   * `<item>` and an optional `max N` after a list type. `max` counts only before a number,
   * so a field named `max` on the next line stays a field.
   */
  public listItem = this.RULE("listItem", () => {
    this.CONSUME(Lt);
    this.SUBRULE(this.typeRef, { LABEL: "item" });
    this.CONSUME(Gt);
    this.OPTION({
      GATE: () => tokenMatcher(this.LA(1), Max) && tokenMatcher(this.LA(2), IntLiteral),
      DEF: () => {
        this.CONSUME(Max);
        this.CONSUME(IntLiteral, { LABEL: "max" });
      },
    });
  });

  /** `type NewUser { username: text, bio: text? }`: members as parameters, commas optional. */
  public typeDecl = this.RULE("typeDecl", () => {
    this.CONSUME(Type);
    this.CONSUME(Name);
    this.memberBlock();
  });

  /** `event task_completed { id: id, title: text }`: an event's data, members as a record type's. */
  public eventDecl = this.RULE("eventDecl", () => {
    this.CONSUME(Event);
    this.CONSUME(Name);
    this.memberBlock();
  });

  /** `{ name: type, … }` of a record type or an event, commas optional: inlined into the rule that calls it. */
  private memberBlock(): void {
    this.CONSUME(LBrace);
    this.MANY({
      GATE: () => tokenMatcher(this.LA(1), Name) && tokenMatcher(this.LA(2), Colon),
      DEF: () => {
        this.SUBRULE(this.binding, { LABEL: "members" });
        this.OPTION(() => this.CONSUME(Comma));
      },
    });
    this.CONSUME(RBrace);
  }

  public paramList = this.RULE("paramList", () => {
    this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.binding, { LABEL: "params" });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.binding, { LABEL: "params" });
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.CONSUME(RParen);
  });

  public queryDecl = this.RULE("queryDecl", () => {
    this.CONSUME(Query);
    this.CONSUME(Name);
    this.SUBRULE(this.paramList);
    this.OPTION(() => this.CONSUME(One));
    this.CONSUME(SqlBody);
  });

  public actionDecl = this.RULE("actionDecl", () => {
    this.CONSUME(Action);
    this.CONSUME(Name);
    this.SUBRULE(this.paramList);
    this.MANY(() => this.SUBRULE(this.limitClause, { LABEL: "limits" }));
    this.OPTION2(() => this.SUBRULE(this.transactionClause, { LABEL: "transaction" }));
    this.OPTION(() => this.SUBRULE(this.requiresClause));
    this.MANY2(() => this.SUBRULE2(this.limitClause, { LABEL: "limits" }));
    this.OPTION3(() => this.SUBRULE2(this.transactionClause, { LABEL: "transaction" }));
    this.SUBRULE(this.block);
  });

  /**
   * `job name(params) attempts 5 timeout 30s queue "mail" priority 5 { … }` (docs/language.md
   * §2.8): options are words the builder and the analyzer check, in any order.
   */
  public jobDecl = this.RULE("jobDecl", () => {
    this.CONSUME(Job);
    this.CONSUME(Name);
    this.SUBRULE(this.paramList);
    this.MANY({
      // Any word with a value: the analyzer names the options a job takes (SVC8004).
      GATE: () => tokenMatcher(this.LA(1), Name) && !tokenMatcher(this.LA(1), Transaction) && startsOptionValue(this.LA(2)),
      DEF: () => this.SUBRULE(this.optionClause, { LABEL: "options" }),
    });
    this.OPTION(() => this.SUBRULE(this.transactionClause, { LABEL: "transaction" }));
    this.SUBRULE(this.block);
  });

  /** `word N [unit]`, `word -N` or `word "text"`: an option of a job or of an enqueue. */
  public optionClause = this.RULE("optionClause", () => {
    this.CONSUME(Name, { LABEL: "word" });
    this.OR([
      {
        ALT: () => {
          this.OPTION(() => this.CONSUME(Minus));
          this.CONSUME(IntLiteral, { LABEL: "amount" });
          this.OPTION2({
            GATE: () => tokenMatcher(this.LA(1), Name) && DURATION_UNITS.has(this.LA(1).image),
            DEF: () => this.CONSUME2(Name, { LABEL: "unit" }),
          });
        },
      },
      { ALT: () => this.CONSUME(StringLiteral, { LABEL: "text" }) },
    ]);
  });

  /**
   * `schedule name every "0 3 * * *" [in "Europe/Paris"] runs job(args) [missed skip|run_once]`,
   * or `every 1m`. `every`, `runs` and `missed` are names the builder checks.
   */
  public scheduleDecl = this.RULE("scheduleDecl", () => {
    this.CONSUME(Schedule);
    this.CONSUME(Name);
    this.CONSUME2(Name, { LABEL: "everyWord" });
    this.OR([
      { ALT: () => this.CONSUME(StringLiteral, { LABEL: "cron" }) },
      {
        ALT: () => {
          this.CONSUME(IntLiteral, { LABEL: "amount" });
          this.CONSUME3(Name, { LABEL: "unit" });
        },
      },
    ]);
    this.OPTION(() => {
      this.CONSUME(In);
      this.CONSUME2(StringLiteral, { LABEL: "zone" });
    });
    this.CONSUME4(Name, { LABEL: "runsWord" });
    this.SUBRULE(this.expression, { LABEL: "call" });
    this.OPTION2({
      GATE: () => tokenMatcher(this.LA(1), Name) && this.LA(1).image === "missed" && tokenMatcher(this.LA(2), Name),
      DEF: () => {
        this.CONSUME5(Name, { LABEL: "missedWord" });
        this.CONSUME6(Name, { LABEL: "policy" });
      },
    });
  });

  /**
   * `transaction serializable | repeatable read | read committed | none [partial]`
   * (docs/language.md §2.3, Transactions): the words are names, checked by the analyzer;
   * `requires` and `limit`, which may follow, end them.
   */
  public transactionClause = this.RULE("transactionClause", () => {
    this.CONSUME(Transaction);
    this.AT_LEAST_ONE({
      GATE: () => !tokenMatcher(this.LA(1), Requires) && !tokenMatcher(this.LA(1), Limit) && !tokenMatcher(this.LA(1), Transaction),
      DEF: () => this.CONSUME(Name, { LABEL: "words" }),
    });
  });

  /**
   * `limit 5 per 1m [by address | by auth.id | by <argument>] [burst 10]` (docs/language.md
   * §2.6). The window is a whole number and a unit (`1m` lexes as `1` and `m`) or a unit
   * alone (`per minute`); the builder checks the words.
   */
  public limitClause = this.RULE("limitClause", () => {
    this.CONSUME(Limit);
    this.CONSUME(IntLiteral, { LABEL: "count" });
    this.CONSUME(Per);
    this.OPTION(() => this.CONSUME2(IntLiteral, { LABEL: "amount" }));
    this.CONSUME(Name, { LABEL: "unit" });
    this.OPTION2(() => {
      this.CONSUME(By);
      this.CONSUME2(Name, { LABEL: "key" });
      this.OPTION3(() => {
        this.CONSUME(Dot);
        this.CONSUME3(Name, { LABEL: "member" });
      });
    });
    this.OPTION4(() => {
      this.CONSUME(Burst);
      this.CONSUME3(IntLiteral, { LABEL: "burst" });
    });
  });

  /** `private query …`, `public action …`: a query or an action that says whether it is an endpoint. */
  public visibleDecl = this.RULE("visibleDecl", () => {
    this.OR([
      { ALT: () => this.CONSUME(Private, { LABEL: "visibility" }) },
      { ALT: () => this.CONSUME(Public, { LABEL: "visibility" }) },
    ]);
    this.OR2([{ ALT: () => this.SUBRULE(this.queryDecl) }, { ALT: () => this.SUBRULE(this.actionDecl) }]);
  });

  /** `fn name(a, b: bool) { … }`: a pure function; a parameter's type may be left to its calls. */
  public fnDecl = this.RULE("fnDecl", () => {
    this.CONSUME(Fn);
    this.CONSUME(Name);
    this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.fnParam, { LABEL: "params" });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.fnParam, { LABEL: "params" });
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.CONSUME(RParen);
    this.SUBRULE(this.block);
  });

  public fnParam = this.RULE("fnParam", () => {
    this.CONSUME(Name);
    this.OPTION(() => {
      this.CONSUME(Colon);
      this.SUBRULE(this.typeRef);
    });
    this.OPTION2(() => {
      this.CONSUME(Equals);
      this.SUBRULE(this.expression, { LABEL: "default" });
    });
  });

  public requiresClause = this.RULE("requiresClause", () => {
    this.CONSUME(Requires);
    this.OR([
      { ALT: () => this.CONSUME(Auth) },
      {
        ALT: () => {
          this.CONSUME(Role);
          this.CONSUME(StringLiteral);
        },
      },
    ]);
  });

  public routeDecl = this.RULE("routeDecl", () => {
    this.OPTION2(() => this.CONSUME(Unsafe, { LABEL: "unsafe" }));
    this.CONSUME(Route);
    this.CONSUME(Name, { LABEL: "method" });
    this.CONSUME(StringLiteral, { LABEL: "path" });
    this.CONSUME(Arrow);
    this.CONSUME2(Name, { LABEL: "target" });
    this.MANY(() => this.SUBRULE(this.limitClause, { LABEL: "limits" }));
    this.OPTION(() => this.SUBRULE(this.respondClause, { LABEL: "respond" }));
  });

  /**
   * `respond [status] [media] [body] (header "Name" = value)*`, in module routes and route-file
   * blocks. The media is `text`, `html`, `csv` or `type "media/type"` (JSON when absent).
   * The body is optional, so it is read only when the next token starts a value
   * and is not what may follow a respond clause (a declaration, a step, `header`).
   */
  public respondClause = this.RULE("respondClause", () => {
    this.CONSUME(Respond);
    this.OPTION(() => this.CONSUME(IntLiteral, { LABEL: "status" }));
    this.OPTION3({
      GATE: () => tokenMatcher(this.LA(1), Type) && tokenMatcher(this.LA(2), StringLiteral),
      DEF: () => {
        this.CONSUME(Type, { LABEL: "mediaKeyword" });
        this.CONSUME2(StringLiteral, { LABEL: "mediaType" });
      },
    });
    this.OPTION4({
      GATE: () => tokenMatcher(this.LA(1), Name) && MEDIA_NAMES.has(this.LA(1).image),
      DEF: () => this.CONSUME(Name, { LABEL: "media" }),
    });
    this.OPTION2({
      GATE: () => startsBody(this.LA(1)),
      DEF: () => this.SUBRULE(this.expression, { LABEL: "body" }),
    });
    this.MANY(() => this.SUBRULE(this.headerClause, { LABEL: "headers" }));
  });

  public headerClause = this.RULE("headerClause", () => {
    this.CONSUME(Header);
    this.CONSUME(StringLiteral, { LABEL: "name" });
    this.CONSUME(Equals);
    this.SUBRULE(this.expression, { LABEL: "value" });
  });

  public webhookDecl = this.RULE("webhookDecl", () => {
    this.CONSUME(Webhook);
    this.CONSUME(Name);
    this.SUBRULE(this.objectLiteral);
  });

  // ------------------------------------------------------------ statements

  public block = this.RULE("block", () => {
    this.CONSUME(LBrace);
    this.MANY(() => this.SUBRULE(this.statement, { LABEL: "statements" }));
    this.CONSUME(RBrace);
  });

  public statement = this.RULE("statement", () => {
    this.OR({
      DEF: [
        { ALT: () => this.SUBRULE(this.letStmt) },
        { ALT: () => this.SUBRULE(this.ifStmt) },
        { ALT: () => this.SUBRULE(this.failStmt) },
        { ALT: () => this.SUBRULE(this.returnStmt) },
        { ALT: () => this.SUBRULE(this.sqlStmt) },
        { ALT: () => this.SUBRULE(this.forStmt) },
        { ALT: () => this.SUBRULE(this.yieldStmt) },
        { ALT: () => this.SUBRULE(this.enqueueStmt) },
        {
          // `emit name { … }`; `emit` alone stays a name (a variable, a call).
          GATE: () => tokenMatcher(this.LA(1), Emit) && tokenMatcher(this.LA(2), Name) && tokenMatcher(this.LA(3), LBrace),
          ALT: () => this.SUBRULE(this.emitStmt),
        },
        { ALT: () => this.SUBRULE(this.expression) },
      ],
      ERR_MSG: "a statement (let, if, for, yield, enqueue, emit, fail, return, sql or an expression)",
    });
  });

  /** `enqueue job(args) [after 10m] [unique expr] [priority N]` (docs/language.md §2.8). */
  public enqueueStmt = this.RULE("enqueueStmt", () => {
    this.CONSUME(Enqueue);
    this.SUBRULE(this.expression, { LABEL: "call" });
    this.MANY({
      GATE: () => tokenMatcher(this.LA(1), Unique) || (tokenMatcher(this.LA(1), Name) && ENQUEUE_OPTIONS.has(this.LA(1).image)),
      DEF: () => this.OR({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          {
            GATE: () => tokenMatcher(this.LA(1), Unique),
            ALT: () => {
              this.CONSUME(Unique);
              this.SUBRULE2(this.expression, { LABEL: "unique" });
            },
          },
          {
            GATE: () => tokenMatcher(this.LA(1), Name) && ENQUEUE_OPTIONS.has(this.LA(1).image),
            ALT: () => this.SUBRULE(this.optionClause, { LABEL: "options" }),
          },
        ],
      }),
    });
  });

  /** `let x = value`, or `let xs = for … { … yield … }`: a list built by a loop. */
  public letStmt = this.RULE("letStmt", () => {
    this.CONSUME(Let);
    this.CONSUME(SoftName, { LABEL: "name" });
    this.CONSUME(Equals);
    this.OR([
      { ALT: () => this.SUBRULE(this.collectFor, { LABEL: "collect" }) },
      { ALT: () => this.SUBRULE(this.expression, { LABEL: "value" }) },
    ]);
  });

  /** `for x in list [max N] { … }` as the value of a `let`: `max` counts only before a number. */
  public collectFor = this.RULE("collectFor", () => {
    this.CONSUME(For);
    this.CONSUME(SoftName, { LABEL: "name" });
    this.CONSUME(In);
    this.SUBRULE(this.expression, { LABEL: "list" });
    this.OPTION({
      GATE: () => tokenMatcher(this.LA(1), Max) && tokenMatcher(this.LA(2), IntLiteral),
      DEF: () => {
        this.CONSUME(Max);
        this.CONSUME(IntLiteral, { LABEL: "max" });
      },
    });
    this.SUBRULE(this.block, { LABEL: "body" });
  });

  /** `yield value`: adds an item to the list the nearest collecting `for` builds. */
  /** `emit task_completed { id: t.id, … }`: an event stored with the action's writes. */
  public emitStmt = this.RULE("emitStmt", () => {
    this.CONSUME(Emit);
    this.CONSUME(Name, { LABEL: "event" });
    this.SUBRULE(this.objectLiteral, { LABEL: "data" });
  });

  public yieldStmt = this.RULE("yieldStmt", () => {
    this.CONSUME(Yield);
    this.SUBRULE(this.expression, { LABEL: "value" });
  });

  public ifStmt = this.RULE("ifStmt", () => {
    this.CONSUME(If);
    // A condition never starts with "{" (an object is always truthy): `if { … }` is a
    // missing condition before the block, reported by the AST builder.
    this.OPTION({
      GATE: () => !tokenMatcher(this.LA(1), LBrace),
      DEF: () => this.SUBRULE(this.expression, { LABEL: "cond" }),
    });
    this.SUBRULE(this.block, { LABEL: "then" });
    this.OPTION2(() => {
      this.CONSUME(Else);
      this.OR([
        { ALT: () => this.SUBRULE(this.ifStmt, { LABEL: "elseIf" }) },
        { ALT: () => this.SUBRULE2(this.block, { LABEL: "elseBlock" }) },
      ]);
    });
  });

  /**
   * `fail 404 "msg"` vs `fail "msg"`: a leading whole number is the status only when
   * something that can start the message follows it. `fail 404` alone therefore has the
   * message 404 and no status; the analyzer, which knows types, says what is wrong.
   */
  public failStmt = this.RULE("failStmt", () => {
    this.CONSUME(Fail);
    this.OPTION({
      GATE: () => startsMessage(this.LA(2)),
      DEF: () => this.CONSUME(IntLiteral, { LABEL: "status" }),
    });
    this.SUBRULE(this.expression, { LABEL: "message" });
  });

  public returnStmt = this.RULE("returnStmt", () => {
    this.CONSUME(Return);
    this.OPTION(() => this.SUBRULE(this.expression, { LABEL: "value" }));
  });

  /** `for tag in tags { … }`: the list expression ends before the body's brace, as an if's condition does. */
  public forStmt = this.RULE("forStmt", () => {
    this.CONSUME(For);
    this.CONSUME(SoftName, { LABEL: "name" });
    this.CONSUME(In);
    this.SUBRULE(this.expression, { LABEL: "list" });
    this.SUBRULE(this.block, { LABEL: "body" });
  });

  public sqlStmt = this.RULE("sqlStmt", () => {
    this.CONSUME(Sql);
    this.CONSUME(SqlBody);
  });

  // ------------------------------------------------------------ route files

  public routeFile = this.RULE("routeFile", () => {
    this.AT_LEAST_ONE({
      DEF: () => this.SUBRULE(this.methodBlock, { LABEL: "blocks" }),
      ERR_MSG: "a method block such as GET { … }",
    });
  });

  public methodBlock = this.RULE("methodBlock", () => {
    this.OPTION2(() => this.CONSUME(Unsafe, { LABEL: "unsafe" }));
    this.CONSUME(MethodName, { LABEL: "method" });
    this.OPTION(() => this.CONSUME2(Name, { LABEL: "blockName" }));
    this.CONSUME(LBrace);
    this.MANY(() => {
      this.OR({
        DEF: [
          { ALT: () => this.SUBRULE(this.dataStep, { LABEL: "steps" }) },
          { ALT: () => this.SUBRULE(this.redirectStep, { LABEL: "steps" }) },
          { ALT: () => this.SUBRULE(this.respondClause, { LABEL: "steps" }) },
          { ALT: () => this.SUBRULE(this.limitClause, { LABEL: "limits" }) },
        ],
        ERR_MSG: "a step (limit, query, invoke, fetch, respond or redirect)",
      });
    });
    this.CONSUME(RBrace);
  });

  public dataStep = this.RULE("dataStep", () => {
    this.OR([
      { ALT: () => this.CONSUME(Query, { LABEL: "op" }) },
      { ALT: () => this.CONSUME(Invoke, { LABEL: "op" }) },
      { ALT: () => this.CONSUME(Fetch, { LABEL: "op" }) },
    ]);
    this.CONSUME(Name, { LABEL: "module" });
    this.CONSUME(Dot);
    this.CONSUME2(Name, { LABEL: "target" });
    // A target without arguments needs no `{}`: `query shop.all_items`.
    this.OPTION(() => this.SUBRULE(this.objectLiteral, { LABEL: "args" }));
  });

  public redirectStep = this.RULE("redirectStep", () => {
    this.CONSUME(Redirect);
    this.SUBRULE(this.expression, { LABEL: "to" });
  });
}

function startsMember(first: IToken, second: IToken): boolean {
  if (tokenMatcher(second, LParen)) return tokenMatcher(first, Index) || tokenMatcher(first, Unique) || tokenMatcher(first, Key);
  if (tokenMatcher(first, Drop) && tokenMatcher(second, Name)) return true;
  return tokenMatcher(second, Colon) && tokenMatcher(first, Name);
}

/** `respond text …`: the answers named by a word (docs/language.md §2.4); ordinary names elsewhere. */
const MEDIA_NAMES: ReadonlySet<string> = new Set(["text", "html", "csv", "ndjson"]);

/** What may follow a respond clause without being its body. */
const afterRespond = [Header, Redirect, Respond, Limit, Query, Invoke, Fetch, Resource, Action, Route, Webhook, Module, Unsafe, Job, Schedule, Drop];

/** What an option's value starts with: a number (maybe negative) or a string. */
function startsOptionValue(token: IToken): boolean {
  return tokenMatcher(token, IntLiteral) || tokenMatcher(token, StringLiteral) || tokenMatcher(token, Minus);
}

/** The options of an enqueue (besides `unique`): other words end the statement. */
const ENQUEUE_OPTIONS: ReadonlySet<string> = new Set(["after", "priority"]);
/** Words read as the unit of a duration (`30s`, `10 minutes`); the analyzer says which it takes. */
export const DURATION_UNITS: ReadonlySet<string> = new Set(["ms", "s", "m", "h", "d", "second", "seconds", "minute", "minutes", "hour", "hours", "day", "days"]);

function startsBody(token: IToken): boolean {
  if (afterRespond.some((t) => tokenMatcher(token, t))) return false;
  return startsMessage(token) || tokenMatcher(token, Minus);
}

const messageStarts = [
  StringLiteral, IntLiteral, FloatLiteral, True, False, Null, SoftName, LParen, LBracket, LBrace, Not,
  Get, Insert, Update, Delete,
];

function startsMessage(token: IToken): boolean {
  return messageStarts.some((t) => tokenMatcher(token, t));
}

/** Built once at module load: self-analysis of the grammar is the slow part. */
export const parser = new SvcParser({ validate: false });
