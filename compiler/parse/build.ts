// CST → AST for declarations, statements and route files, on top of the expression
// builder. Incomplete items (see build-support.ts) are dropped one by one, so the
// declarations after a syntax error still reach the analyzer.

import { keyCodes } from "../diagnostics/codes/keys.js";
import { parseCodes } from "../diagnostics/codes/parse.js";
import type {
  ActionDecl, Block, DataStep, Decl, Expr, FieldDecl, FnDecl, FnParam, IfStmt, IndexDecl, KeyDecl, MethodBlock, ModuleFile, Param,
  QueryDecl, RedirectStep, RespondClause, RespondMedia, Requires, ResourceDecl, RouteDecl, RouteFile, SqlBody, Stmt, TypeRef, WebhookDecl,
  ForStmt, TypeDecl, EventDecl, LimitClause, IntLit, TransactionClause, JobDecl, OptionClause, ScheduleDecl, CallExpr,
  DropColumnDecl, DropResourceDecl, FieldChange, Span,
} from "./ast.js";
import { ExpressionBuilder, intLit, stringLit } from "./build-expressions.js";
import { childrenSpan, ident, INCOMPLETE, isReal, keepComplete, need, tokenSpan, type BuildContext } from "./build-support.js";
import type {
  ActionDeclCstChildren, BindingCstChildren, BlockCstChildren, DataStepCstChildren, DeclarationCstChildren,
  FailStmtCstChildren, ICstNodeVisitor, IfStmtCstChildren, IndexColumnCstChildren, IndexDeclCstChildren, KeyDeclCstChildren,
  LetStmtCstChildren, MethodBlockCstChildren, ModuleCstChildren, ParamListCstChildren, QueryDeclCstChildren,
  HeaderClauseCstChildren, RedirectStepCstChildren, RequiresClauseCstChildren, RespondClauseCstChildren, ResourceDeclCstChildren, ReturnStmtCstChildren,
  RouteDeclCstChildren, RouteFileCstChildren, SqlStmtCstChildren, StatementCstChildren, TypeRefCstChildren,
  WebhookDeclCstChildren, ForStmtCstChildren, CollectForCstChildren, YieldStmtCstChildren, TypeDeclCstChildren, EventDeclCstChildren, EmitStmtCstChildren, ListItemCstChildren,
  VisibleDeclCstChildren, FnDeclCstChildren, FnParamCstChildren, LimitClauseCstChildren, TransactionClauseCstChildren,
  JobDeclCstChildren, OptionClauseCstChildren, ScheduleDeclCstChildren, EnqueueStmtCstChildren,
  FieldDeclCstChildren, DropColumnCstChildren, DropResourceDeclCstChildren,
} from "./cst.js";
import type { IToken } from "chevrotain";
import type { SqlScan } from "./sql-scan.js";

type Binding = Omit<Param, "kind">;

export class AstBuilder extends ExpressionBuilder implements ICstNodeVisitor<BuildContext, unknown> {
  constructor() {
    super();
    this.validateVisitor();
  }

  // ------------------------------------------------------------ module files

  module(ctx: ModuleCstChildren, c: BuildContext): ModuleFile {
    const header = ctx.moduleName?.[0];
    if (!ctx.Module) {
      const first = ctx.declarations?.[0]?.location?.startOffset ?? 0;
      c.diagnostics.push(parseCodes.missingModuleHeader.at(c.file, c.positions.span(first, first)));
    }
    return {
      kind: "ModuleFile",
      file: c.file,
      module: header && isReal(header) ? ident(c, header) : null,
      decls: keepComplete(ctx.declarations, (n) => this.declaration(n.children, c)),
      span: c.positions.span(0, c.positions.length),
    };
  }

  declaration(ctx: DeclarationCstChildren, c: BuildContext): Decl {
    const decl = ctx.resourceDecl
      ? this.resourceDecl(ctx.resourceDecl[0].children, c)
      : ctx.queryDecl
        ? this.queryDecl(ctx.queryDecl[0].children, c)
        : ctx.actionDecl
          ? this.actionDecl(ctx.actionDecl[0].children, c)
          : ctx.routeDecl
            ? this.routeDecl(ctx.routeDecl[0].children, c)
            : ctx.typeDecl
              ? this.typeDecl(ctx.typeDecl[0].children, c)
              : ctx.eventDecl
              ? this.eventDecl(ctx.eventDecl[0].children, c)
              : ctx.webhookDecl
                ? this.webhookDecl(ctx.webhookDecl[0].children, c)
                : ctx.visibleDecl
                  ? this.visibleDecl(ctx.visibleDecl[0].children, c)
                  : ctx.jobDecl
                    ? this.jobDecl(ctx.jobDecl[0].children, c)
                    : ctx.scheduleDecl
                      ? this.scheduleDecl(ctx.scheduleDecl[0].children, c)
                      : ctx.dropResourceDecl
                        ? this.dropResourceDecl(ctx.dropResourceDecl[0].children, c)
                        : this.fnDecl(need(ctx.fnDecl).children, c);
    decl.doc = c.docs.above(decl.span.start.line);
    return decl;
  }

  resourceDecl(ctx: ResourceDeclCstChildren, c: BuildContext): ResourceDecl {
    const fields: FieldDecl[] = [];
    const indexes: IndexDecl[] = [];
    const keys: KeyDecl[] = [];
    const drops: DropColumnDecl[] = [];
    keepComplete(ctx.members, (n) => {
      if (n.name === "indexDecl") indexes.push(this.indexDecl(n.children, c));
      else if (n.name === "keyDecl") keys.push(this.keyDecl(n.children, c));
      else if (n.name === "dropColumn") drops.push(this.dropColumn(n.children, c));
      else fields.push(this.fieldDecl(n.children, c));
    });
    const decl: ResourceDecl = { kind: "Resource", doc: null, name: ident(c, need(ctx.Name)), fields, indexes, keys, span: childrenSpan(c, ctx) };
    if (drops.length > 0) decl.drops = drops;
    return decl;
  }

  fieldDecl(ctx: FieldDeclCstChildren, c: BuildContext): FieldDecl {
    const b = this.binding(need(ctx.binding).children, c);
    const field: FieldDecl = { kind: "Field", doc: c.docs.above(b.span.start.line), ...b };
    const change = fieldChange(this, ctx, c);
    if (change) {
      field.change = change;
      field.span = { start: b.span.start, end: change.span.end };
    }
    return field;
  }

  dropColumn(ctx: DropColumnCstChildren, c: BuildContext): DropColumnDecl {
    return { kind: "DropColumn", name: ident(c, need(ctx.Name)), span: childrenSpan(c, ctx) };
  }

  dropResourceDecl(ctx: DropResourceDeclCstChildren, c: BuildContext): DropResourceDecl {
    return { kind: "DropResource", doc: null, name: ident(c, need(ctx.Name)), span: childrenSpan(c, ctx) };
  }

  indexDecl(ctx: IndexDeclCstChildren, c: BuildContext): IndexDecl {
    const columns = keepComplete(ctx.columns, (n) => this.indexColumn(n.children, c));
    const index: IndexDecl = { kind: "Index", unique: ctx.Unique !== undefined, columns, span: childrenSpan(c, ctx) };
    if (ctx.Fail) {
      const status = ctx.status && isReal(ctx.status[0]) ? intLit(c, ctx.status[0]) : null;
      const message = ctx.message && isReal(ctx.message[0]) ? stringLit(c, ctx.message[0]) : null;
      const last = message?.span ?? status?.span ?? tokenSpan(c, ctx.Fail[0]);
      index.fail = { status, message, span: { start: tokenSpan(c, ctx.Fail[0]).start, end: last.end } };
    }
    return index;
  }

  keyDecl(ctx: KeyDeclCstChildren, c: BuildContext): KeyDecl {
    return { kind: "Key", columns: (ctx.columns ?? []).map((t) => ident(c, t)), span: childrenSpan(c, ctx) };
  }

  indexColumn(ctx: IndexColumnCstChildren, c: BuildContext): IndexDecl["columns"][number] {
    return { name: ident(c, need(ctx.Name)), desc: ctx.Desc !== undefined, span: childrenSpan(c, ctx) };
  }

  binding(ctx: BindingCstChildren, c: BuildContext): Binding {
    const name = ident(c, need(ctx.Name));
    const type = this.typeRef(need(ctx.typeRef).children, c);
    const value = ctx.default ? this.expression(ctx.default[0].children, c) : null;
    if (ctx.Equals && !value) throw INCOMPLETE;
    return { name, type, default: value, span: { start: name.span.start, end: (value ?? type).span.end } };
  }

  typeRef(ctx: TypeRefCstChildren, c: BuildContext): TypeRef {
    const name = ident(c, need(ctx.typeName));
    const values = keepComplete(ctx.values, (t) => ident(c, t));
    if (name.name === "enum" && values.length === 0) {
      c.diagnostics.push(parseCodes.enumWithoutValues.at(c.file, name.span));
    } else if (name.name === "id" && ctx.LParen && values.length === 0) {
      c.diagnostics.push(keyCodes.idKind.at(c.file, childrenSpan(c, ctx), "id()"));
    } else if (name.name !== "enum" && name.name !== "id" && ctx.LParen) {
      // `id(uuid)`, `id(int)`: the kind of a key, checked by the analyzer (resource.ts).
      c.diagnostics.push(parseCodes.valuesOnNonEnum.at(c.file, childrenSpan(c, ctx), name.name));
    }
    const ref: TypeRef = { kind: "TypeRef", name, values, nullable: ctx.Question !== undefined, span: childrenSpan(c, ctx) };
    if ((ctx.Question?.length ?? 0) > 1) ref.absent = true;
    if (ctx.listItem) Object.assign(ref, this.listItem(ctx.listItem[0].children, c));
    return ref;
  }

  listItem(ctx: ListItemCstChildren, c: BuildContext): Pick<TypeRef, "item" | "max"> {
    const item = this.typeRef(need(ctx.item).children, c);
    return ctx.max ? { item, max: intLit(c, ctx.max[0]) } : { item };
  }

  typeDecl(ctx: TypeDeclCstChildren, c: BuildContext): TypeDecl {
    const members = keepComplete(ctx.members, (n) => ({ kind: "Param" as const, ...this.binding(n.children, c) }));
    return { kind: "Type", doc: null, name: ident(c, need(ctx.Name)), members, span: childrenSpan(c, ctx) };
  }

  eventDecl(ctx: EventDeclCstChildren, c: BuildContext): EventDecl {
    const members = keepComplete(ctx.members, (n) => ({ kind: "Param" as const, ...this.binding(n.children, c) }));
    return { kind: "Event", doc: null, name: ident(c, need(ctx.Name)), members, span: childrenSpan(c, ctx) };
  }

  paramList(ctx: ParamListCstChildren, c: BuildContext): Param[] {
    return keepComplete(ctx.params, (n) => ({ kind: "Param", ...this.binding(n.children, c) }));
  }

  queryDecl(ctx: QueryDeclCstChildren, c: BuildContext): QueryDecl {
    const span = childrenSpan(c, ctx);
    return {
      kind: "Query",
      doc: null,
      name: ident(c, need(ctx.Name)),
      params: ctx.paramList ? this.paramList(ctx.paramList[0].children, c) : [],
      one: ctx.One !== undefined,
      sql: sqlBody(c, ctx.SqlBody?.[0], span.end.offset),
      span,
    };
  }

  actionDecl(ctx: ActionDeclCstChildren, c: BuildContext): ActionDecl {
    const span = childrenSpan(c, ctx);
    const body: Block = ctx.block
      ? this.block(ctx.block[0].children, c)
      : { kind: "Block", stmts: [], span: c.positions.span(span.end.offset, span.end.offset) };
    return {
      kind: "Action",
      doc: null,
      name: ident(c, need(ctx.Name)),
      params: ctx.paramList ? this.paramList(ctx.paramList[0].children, c) : [],
      requires: ctx.requiresClause ? this.requiresClause(ctx.requiresClause[0].children, c) : null,
      ...(ctx.limits ? { limits: keepComplete(ctx.limits, (n) => this.limitClause(n.children, c)) } : {}),
      ...(ctx.transaction ? { transaction: keepComplete(ctx.transaction, (n) => this.transactionClause(n.children, c)) } : {}),
      body,
      span,
    };
  }

  jobDecl(ctx: JobDeclCstChildren, c: BuildContext): JobDecl {
    const span = childrenSpan(c, ctx);
    const body: Block = ctx.block
      ? this.block(ctx.block[0].children, c)
      : { kind: "Block", stmts: [], span: c.positions.span(span.end.offset, span.end.offset) };
    return {
      kind: "Job",
      doc: null,
      name: ident(c, need(ctx.Name)),
      params: ctx.paramList ? this.paramList(ctx.paramList[0].children, c) : [],
      options: keepComplete(ctx.options, (n) => this.optionClause(n.children, c)),
      ...(ctx.transaction ? { transaction: keepComplete(ctx.transaction, (n) => this.transactionClause(n.children, c)) } : {}),
      body,
      span,
    };
  }

  optionClause(ctx: OptionClauseCstChildren, c: BuildContext): OptionClause {
    const word = ident(c, need(ctx.word));
    const text = ctx.text && isReal(ctx.text[0]) ? stringLit(c, ctx.text[0]) : null;
    let amount = ctx.amount && isReal(ctx.amount[0]) ? intLit(c, ctx.amount[0]) : null;
    if (amount === null && text === null) throw INCOMPLETE;
    if (amount !== null && ctx.Minus) amount = { ...amount, value: -amount.value, span: { start: tokenSpan(c, ctx.Minus[0]).start, end: amount.span.end } };
    return { word, amount, unit: ctx.unit ? ident(c, ctx.unit[0]) : null, text, span: childrenSpan(c, ctx) };
  }

  scheduleDecl(ctx: ScheduleDeclCstChildren, c: BuildContext): ScheduleDecl {
    const span = childrenSpan(c, ctx);
    const words: [IToken[] | undefined, string][] = [[ctx.everyWord, "every"], [ctx.runsWord, "runs"], [ctx.missedWord, "missed"]];
    for (const [tokens, expected] of words) {
      const t = tokens?.[0];
      if (t && isReal(t) && t.image !== expected) c.diagnostics.push(parseCodes.unexpectedToken.at(c.file, tokenSpan(c, t), JSON.stringify(t.image), `"${expected}"`));
    }
    const every: ScheduleDecl["every"] = ctx.cron && isReal(ctx.cron[0])
      ? { cron: stringLit(c, ctx.cron[0]) }
      : { amount: intLit(c, need(ctx.amount)), unit: ident(c, need(ctx.unit)) };
    return {
      kind: "Schedule",
      doc: null,
      name: ident(c, need(ctx.Name)),
      every,
      zone: ctx.zone && isReal(ctx.zone[0]) ? stringLit(c, ctx.zone[0]) : null,
      call: this.callOf(ctx.call?.[0] ? this.expression(ctx.call[0].children, c) : null, c),
      missed: ctx.policy && isReal(ctx.policy[0]) ? ident(c, ctx.policy[0]) : null,
      span,
    };
  }

  /** The call an `enqueue` or a schedule's `runs` names; anything else is reported and dropped. */
  private callOf(e: Expr | null, c: BuildContext): CallExpr | null {
    if (e === null) throw INCOMPLETE;
    if (e.kind === "Call") return e;
    c.diagnostics.push(parseCodes.unexpectedToken.at(c.file, e.span, "an expression", "a job and its arguments, such as send_digest(user: u.id)"));
    return null;
  }

  transactionClause(ctx: TransactionClauseCstChildren, c: BuildContext): TransactionClause {
    if (!ctx.words) throw INCOMPLETE;
    return { kind: "Transaction", words: ctx.words.map((w) => ident(c, w)), span: childrenSpan(c, ctx) };
  }

  visibleDecl(ctx: VisibleDeclCstChildren, c: BuildContext): QueryDecl | ActionDecl {
    const decl = ctx.queryDecl ? this.queryDecl(ctx.queryDecl[0].children, c) : this.actionDecl(need(ctx.actionDecl).children, c);
    const keyword = need(ctx.visibility);
    // The declaration starts at its keyword, so doc comments above `private` still attach.
    return { ...decl, visibility: ident(c, keyword), span: { start: tokenSpan(c, keyword).start, end: decl.span.end } };
  }

  fnDecl(ctx: FnDeclCstChildren, c: BuildContext): FnDecl {
    const span = childrenSpan(c, ctx);
    const body: Block = ctx.block
      ? this.block(ctx.block[0].children, c)
      : { kind: "Block", stmts: [], span: c.positions.span(span.end.offset, span.end.offset) };
    return {
      kind: "Fn",
      doc: null,
      name: ident(c, need(ctx.Name)),
      params: keepComplete(ctx.params, (n) => this.fnParam(n.children, c)),
      body,
      span,
    };
  }

  fnParam(ctx: FnParamCstChildren, c: BuildContext): FnParam {
    const name = ident(c, need(ctx.Name));
    const type = ctx.typeRef ? this.typeRef(ctx.typeRef[0].children, c) : null;
    if (ctx.Colon && !type) throw INCOMPLETE;
    const value = ctx.default ? this.expression(ctx.default[0].children, c) : null;
    if (ctx.Equals && !value) throw INCOMPLETE;
    return { name, type, default: value, span: { start: name.span.start, end: (value ?? type ?? name).span.end } };
  }

  requiresClause(ctx: RequiresClauseCstChildren, c: BuildContext): Requires {
    const span = childrenSpan(c, ctx);
    if (ctx.Auth) return { kind: "auth", span };
    return { kind: "role", role: stringLit(c, need(ctx.StringLiteral)), span };
  }

  routeDecl(ctx: RouteDeclCstChildren, c: BuildContext): RouteDecl {
    return {
      kind: "Route",
      doc: null,
      method: ident(c, need(ctx.method)),
      path: stringLit(c, need(ctx.path)),
      target: ident(c, need(ctx.target)),
      respond: ctx.respond ? this.respondClause(ctx.respond[0].children, c) : null,
      unsafe: ctx.unsafe ? tokenSpan(c, ctx.unsafe[0]) : null,
      ...(ctx.limits ? { limits: keepComplete(ctx.limits, (n) => this.limitClause(n.children, c)) } : {}),
      span: childrenSpan(c, ctx),
    };
  }

  limitClause(ctx: LimitClauseCstChildren, c: BuildContext): LimitClause {
    const keyName = ctx.key ? ident(c, ctx.key[0]) : null;
    const member = ctx.member ? ident(c, ctx.member[0]) : null;
    if (ctx.Dot && !member) throw INCOMPLETE;
    return {
      kind: "Limit",
      count: intLit(c, need(ctx.count)),
      amount: ctx.amount ? intLit(c, ctx.amount[0]) : null,
      unit: ident(c, need(ctx.unit)),
      key: keyName === null ? null : { name: keyName, member, span: { start: keyName.span.start, end: (member ?? keyName).span.end } },
      burst: ctx.burst ? intLit(c, ctx.burst[0]) : null,
      span: childrenSpan(c, ctx),
    };
  }

  respondClause(ctx: RespondClauseCstChildren, c: BuildContext): RespondClause {
    return {
      kind: "Respond",
      status: ctx.status && isReal(ctx.status[0]) ? intLit(c, ctx.status[0]) : null,
      media: respondMedia(ctx, c),
      body: ctx.body ? this.expression(ctx.body[0].children, c) : null,
      headers: keepComplete(ctx.headers, (n) => this.headerClause(n.children, c)),
      span: childrenSpan(c, ctx),
    };
  }

  headerClause(ctx: HeaderClauseCstChildren, c: BuildContext): RespondClause["headers"][number] {
    return {
      name: stringLit(c, need(ctx.name)),
      value: this.expression(need(ctx.value).children, c),
      span: childrenSpan(c, ctx),
    };
  }

  webhookDecl(ctx: WebhookDeclCstChildren, c: BuildContext): WebhookDecl {
    const fields = ctx.objectLiteral ? this.objectLiteral(ctx.objectLiteral[0].children, c).entries : [];
    return { kind: "Webhook", doc: null, name: ident(c, need(ctx.Name)), fields, span: childrenSpan(c, ctx) };
  }

  // ------------------------------------------------------------ statements

  block(ctx: BlockCstChildren, c: BuildContext): Block {
    const stmts = keepComplete(ctx.statements, (n) => this.statement(n.children, c));
    return { kind: "Block", stmts, span: childrenSpan(c, ctx) };
  }

  statement(ctx: StatementCstChildren, c: BuildContext): Stmt {
    if (ctx.letStmt) return this.letStmt(ctx.letStmt[0].children, c);
    if (ctx.ifStmt) return this.ifStmt(ctx.ifStmt[0].children, c);
    if (ctx.failStmt) return this.failStmt(ctx.failStmt[0].children, c);
    if (ctx.returnStmt) return this.returnStmt(ctx.returnStmt[0].children, c);
    if (ctx.sqlStmt) return this.sqlStmt(ctx.sqlStmt[0].children, c);
    if (ctx.forStmt) return this.forStmt(ctx.forStmt[0].children, c);
    if (ctx.yieldStmt) return this.yieldStmt(ctx.yieldStmt[0].children, c);
    if (ctx.enqueueStmt) return this.enqueueStmt(ctx.enqueueStmt[0].children, c);
    if (ctx.emitStmt) return this.emitStmt(ctx.emitStmt[0].children, c);
    const expr: Expr = this.expression(need(ctx.expression).children, c);
    return { kind: "ExprStmt", expr, span: expr.span };
  }

  letStmt(ctx: LetStmtCstChildren, c: BuildContext): Stmt {
    if (ctx.collect) {
      const { loop, max } = this.collectFor(ctx.collect[0].children, c);
      return { kind: "Collect", name: ident(c, need(ctx.name)), loop, max, span: childrenSpan(c, ctx) };
    }
    const value = this.expression(need(ctx.value).children, c);
    return { kind: "Let", name: ident(c, need(ctx.name)), value, span: childrenSpan(c, ctx) };
  }

  ifStmt(ctx: IfStmtCstChildren, c: BuildContext): IfStmt {
    if (!ctx.cond) {
      // Only `if {` gets here without a syntax error already reported for it.
      const brace = ctx.then?.[0]?.children.LBrace?.[0];
      if (brace && isReal(brace)) {
        c.diagnostics.push(parseCodes.unexpectedToken.at(c.file, tokenSpan(c, brace), '"{"', "a condition"));
      }
      throw INCOMPLETE;
    }
    const cond = this.expression(ctx.cond[0].children, c);
    const then = this.block(need(ctx.then).children, c);
    const otherwise = ctx.elseIf
      ? this.ifStmt(ctx.elseIf[0].children, c)
      : ctx.elseBlock
        ? this.block(ctx.elseBlock[0].children, c)
        : null;
    return { kind: "If", cond, then, else: otherwise, span: childrenSpan(c, ctx) };
  }

  failStmt(ctx: FailStmtCstChildren, c: BuildContext): Stmt {
    const status = ctx.status ? intLit(c, ctx.status[0]) : null;
    const message = this.expression(need(ctx.message).children, c);
    return { kind: "Fail", status, message, span: childrenSpan(c, ctx) };
  }

  returnStmt(ctx: ReturnStmtCstChildren, c: BuildContext): Stmt {
    const value = ctx.value ? this.expression(ctx.value[0].children, c) : null;
    return { kind: "Return", value, span: childrenSpan(c, ctx) };
  }

  forStmt(ctx: ForStmtCstChildren, c: BuildContext): ForStmt {
    const list = this.expression(need(ctx.list).children, c);
    const body = this.block(need(ctx.body).children, c);
    return { kind: "For", name: ident(c, need(ctx.name)), list, body, span: childrenSpan(c, ctx) };
  }

  collectFor(ctx: CollectForCstChildren, c: BuildContext): { loop: ForStmt; max: IntLit | null } {
    const list = this.expression(need(ctx.list).children, c);
    const body = this.block(need(ctx.body).children, c);
    const loop: ForStmt = { kind: "For", name: ident(c, need(ctx.name)), list, body, span: childrenSpan(c, ctx) };
    return { loop, max: ctx.max ? intLit(c, ctx.max[0]) : null };
  }

  emitStmt(ctx: EmitStmtCstChildren, c: BuildContext): Stmt {
    const data = this.objectLiteral(need(ctx.data).children, c);
    return { kind: "Emit", event: ident(c, need(ctx.event)), data, span: childrenSpan(c, ctx) };
  }

  yieldStmt(ctx: YieldStmtCstChildren, c: BuildContext): Stmt {
    const value = this.expression(need(ctx.value).children, c);
    return { kind: "Yield", value, span: childrenSpan(c, ctx) };
  }

  enqueueStmt(ctx: EnqueueStmtCstChildren, c: BuildContext): Stmt {
    return {
      kind: "Enqueue",
      call: this.callOf(ctx.call?.[0] ? this.expression(ctx.call[0].children, c) : null, c),
      unique: ctx.unique ? this.expression(ctx.unique[0].children, c) : null,
      options: keepComplete(ctx.options, (n) => this.optionClause(n.children, c)),
      span: childrenSpan(c, ctx),
    };
  }

  sqlStmt(ctx: SqlStmtCstChildren, c: BuildContext): Stmt {
    const span = childrenSpan(c, ctx);
    return { kind: "SqlStmt", sql: sqlBody(c, ctx.SqlBody?.[0], span.end.offset), span };
  }

  // ------------------------------------------------------------ route files

  routeFile(ctx: RouteFileCstChildren, c: BuildContext): RouteFile {
    return {
      kind: "RouteFile",
      file: c.file,
      blocks: keepComplete(ctx.blocks, (n) => this.methodBlock(n.children, c)),
      span: c.positions.span(0, c.positions.length),
    };
  }

  methodBlock(ctx: MethodBlockCstChildren, c: BuildContext): MethodBlock {
    const steps = keepComplete(ctx.steps, (n) =>
      n.name === "dataStep"
        ? this.dataStep(n.children, c)
        : n.name === "respondClause"
          ? this.respondClause(n.children as RespondClauseCstChildren, c)
          : this.redirectStep(n.children as RedirectStepCstChildren, c),
    );
    const name = ctx.blockName && isReal(ctx.blockName[0]) ? ident(c, ctx.blockName[0]) : null;
    const unsafe = ctx.unsafe ? tokenSpan(c, ctx.unsafe[0]) : null;
    const block: MethodBlock = { kind: "MethodBlock", method: ident(c, need(ctx.method)), name, steps, unsafe, span: childrenSpan(c, ctx) };
    if (ctx.limits) block.limits = keepComplete(ctx.limits, (n) => this.limitClause(n.children, c));
    return block;
  }

  dataStep(ctx: DataStepCstChildren, c: BuildContext): DataStep {
    return {
      kind: "DataStep",
      op: need(ctx.op).image as DataStep["op"],
      module: ident(c, need(ctx.module)),
      target: ident(c, need(ctx.target)),
      args: ctx.args ? this.objectLiteral(ctx.args[0].children, c).entries : [],
      span: childrenSpan(c, ctx),
    };
  }

  redirectStep(ctx: RedirectStepCstChildren, c: BuildContext): RedirectStep {
    return { kind: "Redirect", to: this.expression(need(ctx.to).children, c), span: childrenSpan(c, ctx) };
  }
}

/** The change clauses of a field (docs/language.md §2.1, Changing a resource); null when it has none. */
function fieldChange(b: AstBuilder, ctx: FieldDeclCstChildren, c: BuildContext): FieldChange | null {
  const change: Omit<FieldChange, "span"> = {};
  const keywords = [ctx.Renamed, ctx.Changed, ctx.Using, ctx.Back, ctx.Lossy, ctx.Backfill].flatMap((t) => t ?? []);
  if (keywords.length === 0) return null;
  let end = -Infinity;
  const reach = (span: Span) => {
    end = Math.max(end, span.end.offset);
    return span;
  };
  if (ctx.Renamed) change.renamedFrom = ident(c, need(ctx.renamedFrom));
  if (change.renamedFrom) reach(change.renamedFrom.span);
  if (ctx.Changed) change.changedFrom = b.typeRef(need(ctx.changedFrom).children, c);
  if (change.changedFrom) reach(change.changedFrom.span);
  if (ctx.Using) change.using = parensSql(c, need(ctx.using));
  if (change.using) reach(tokenSpan(c, ctx.using![0]));
  if (ctx.Back) change.back = parensSql(c, need(ctx.back));
  if (change.back) reach(tokenSpan(c, ctx.back![0]));
  if (ctx.Lossy) change.lossy = reach(tokenSpan(c, ctx.Lossy[0]));
  if (ctx.Backfill) {
    const start = tokenSpan(c, ctx.Backfill[0]).start;
    if (ctx.backfillSql) {
      const sql = parensSql(c, ctx.backfillSql[0]);
      change.backfill = { sql, span: { start, end: reach(tokenSpan(c, ctx.backfillSql[0])).end } };
    } else {
      const value = b.expression(need(ctx.backfillValue).children, c);
      change.backfill = { value, span: { start, end: reach(value.span).end } };
    }
  }
  const start = Math.min(...keywords.map((t) => t.startOffset));
  return { ...change, span: c.positions.span(start, end) };
}

/** `(…)` after `using`, `back` or `backfill`: the SQL between the parentheses. */
function parensSql(c: BuildContext, token: IToken): SqlBody {
  const scan = isReal(token) ? (token.payload as SqlScan | undefined) : undefined;
  // Unclosed (SVC8100, reported by the lexer): the field is left out rather than checked half-read.
  if (!scan?.terminated) throw INCOMPLETE;
  return sqlBody(c, token, scan.textEnd);
}

/**
 * A body the parser had to invent (or that is missing) becomes empty SQL at the end of
 * its declaration: the declaration stays known, so calls to it raise no further errors.
 */
function sqlBody(c: BuildContext, token: IToken | undefined, fallbackOffset: number): SqlBody {
  const scan = token && isReal(token) ? (token.payload as SqlScan | undefined) : undefined;
  if (!token || !scan) {
    return { kind: "Sql", text: "", span: c.positions.span(fallbackOffset, fallbackOffset), params: [] };
  }
  tokenSpan(c, token);
  return {
    kind: "Sql",
    text: token.image.slice(scan.textStart - token.startOffset, scan.textEnd - token.startOffset),
    span: c.positions.span(scan.textStart, scan.textEnd),
    params: scan.params.map((p) => ({ name: p.name, span: c.positions.span(p.offset, p.offset + 1 + p.name.length) })),
  };
}

/** `text`, `html`, `csv` (a word the grammar only takes there), or `type "media/type"`. */
function respondMedia(ctx: RespondClauseCstChildren, c: BuildContext): RespondMedia | null {
  if (ctx.media && isReal(ctx.media[0])) {
    return { kind: ctx.media[0].image as RespondMedia["kind"], type: null, span: tokenSpan(c, ctx.media[0]) };
  }
  if (ctx.mediaKeyword && ctx.mediaType && isReal(ctx.mediaType[0])) {
    const type = stringLit(c, ctx.mediaType[0]);
    return { kind: "type", type, span: { start: tokenSpan(c, ctx.mediaKeyword[0]).start, end: type.span.end } };
  }
  return null;
}
