import type { IrExpr, IrStmt, Model, RecordWrite, Rehash } from "../analyze/model/model.js";
import { RUNTIME_NAMES, VALUE_BUILTINS } from "../analyze/expressions/builtins.js";
import { isNullable } from "../analyze/shared/types.js";
import { isAbsentRef } from "../analyze/expressions/absent.js";
import { local, type Names } from "./names.js";
import { valueTs } from "./ts-types.js";

/** `T[]`, parenthesized where T is a union: `(string | null)[]`. */
function arrayTs(item: string): string {
  return /^[\w.$<>]+$/.test(item) ? `${item}[]` : `(${item})[]`;
}

/** Turns an action's typed IR into straight-line TypeScript running on `tx`. */
export class IrEmitter {
  /** Whether the code emitted so far reads an argument: an action that reads none names its parameter `_args`. */
  readsArgs = false;

  constructor(
    private readonly names: Names,
    private readonly model: Model,
  ) {}

  stmts(list: readonly IrStmt[], indent = ""): string {
    return list.map((s) => this.stmt(s, indent)).join("\n");
  }

  private stmt(s: IrStmt, ind: string): string {
    switch (s.kind) {
      case "let":
        return `${ind}const ${local(s.name)} = ${this.expr(s.value)};`;
      case "if": {
        const head = `${ind}if (${this.expr(s.cond)}) {\n${this.stmts(s.then, ind + "  ")}\n${ind}}`;
        if (s.else.length === 0) return head;
        if (s.else.length === 1 && s.else[0].kind === "if") return `${head} else ${this.stmt(s.else[0], ind).trimStart()}`;
        return `${head} else {\n${this.stmts(s.else, ind + "  ")}\n${ind}}`;
      }
      case "fail":
        return s.challenge === undefined
          ? `${ind}throw new rt.Fail(${s.status}, ${this.expr(s.message)});`
          : `${ind}throw new rt.Fail(${s.status}, ${this.expr(s.message)}, ${JSON.stringify(s.challenge)});`;
      case "return":
        return `${ind}return ${s.value ? this.expr(s.value) : "null"};`;
      case "expr":
        return `${ind}${this.expr(s.expr)};`;
      case "sql":
        return `${ind}await tx.run(${this.names.statement(s.statement)}, [${s.args.map((a) => this.expr(a)).join(", ")}]);`;
      case "for": {
        const list = isNullable(s.list.type) ? `rt.lists.items(${this.expr(s.list)})` : this.expr(s.list);
        const loop = `${ind}for (const ${local(s.name)} of ${list}) {\n${this.stmts(s.body, ind + "  ")}\n${ind}}`;
        if (s.collect === undefined) return loop;
        // `let xs = for …`: the list starts empty, and each `yield` adds to it (bounded by `max`).
        return `${ind}const ${local(s.collect.into)}: ${arrayTs(valueTs(s.collect.item, this.names, this.model))} = [];\n${loop}`;
      }
      case "yield":
        return `${ind}rt.values.collect(${local(s.into)}, ${this.expr(s.value)}, ${s.max}, ${JSON.stringify(s.into)});`;
      case "emit":
        return `${ind}await rt.emit(tx, ctx, ${JSON.stringify(s.event)}, ${this.expr(s.data)});`;
    }
  }

  expr(e: IrExpr): string {
    switch (e.kind) {
      case "literal":
        return e.value === null ? "null" : JSON.stringify(e.value);
      case "param":
        this.readsArgs = true;
        // A `T??` argument is undefined when absent: read as null, or, below a null test, as the value.
        if (e.absent) return isNullable(e.type) ? `(args.${e.name} ?? null)` : `args.${e.name}!`;
        return `args.${e.name}`;
      // Below `requires` (or a null test) the server has resolved a caller; elsewhere it may be null.
      case "caller":
        return isNullable(e.type) ? "(ctx.caller ?? null)" : "ctx.caller!";
      case "local":
        return local(e.name);
      case "member": {
        const obj = this.operand(e.object);
        const untyped = e.object.type.kind === "unknown" || (e.object.type.kind === "scalar" && e.object.type.type === "json");
        if (untyped) return `rt.member(${this.expr(e.object)}, ${JSON.stringify(e.property)})`;
        if (e.optional) return `(${this.optionalChain(e)} ?? null)`;
        return e.absent ? `(${obj}.${e.property} ?? null)` : `${obj}.${e.property}`;
      }
      case "object":
        return `{ ${e.entries.map((en) => `${en.key}: ${this.expr(en.value)}`).join(", ")} }`;
      case "array":
        return `[${e.items.map((i) => this.expr(i)).join(", ")}]`;
      case "unary":
        return e.op === "not" ? `!${this.operand(e.operand)}` : `-${this.operand(e.operand)}`;
      case "binary":
        return this.binary(e);
      case "builtin":
        return this.builtin(e);
      case "query":
      case "action": {
        const callee =
          e.kind === "query"
            ? this.model.queries.find((x) => x.module === e.module && x.name === e.query)!
            : this.model.actions.find((x) => x.module === e.module && x.name === e.action)!;
        const given = new Map(e.args.map((a) => [a.name, a.value]));
        // Leave nothing to the callee: defaults are filled here, at build time.
        const fields = callee.params.map((p) => {
          const v = given.get(p.name);
          // A `T??` parameter: left out, or given a `T??` value that is absent, it is absent there too.
          if ("absent" in p && p.absent) return `${p.name}: ${v ? (isAbsentRef(v) ? this.raw(v) : this.expr(v)) : "undefined"}`;
          const value = v ? this.expr(v) : p.default === undefined ? "null" : JSON.stringify(p.default);
          return `${p.name}: ${value}`;
        });
        // A callee that reads `auth` or starts a session takes the caller's context.
        const ctx = "context" in callee && callee.context === true ? ", ctx" : "";
        return `(await ${this.names.fn(callee.module, callee.name)}(tx, { ${fields.join(", ")} }${ctx}))`;
      }
      case "enqueue":
        return this.enqueue(e);
      case "action": {
        const a = this.model.actions.find((x) => x.module === e.module && x.name === e.action)!;
        const given = new Map(e.args.map((g) => [g.name, g.value]));
        // On the caller's executor: the callee's writes share the caller's transaction.
        const fields = a.params.map((p) => {
          const v = given.get(p.name);
          return `${p.name}: ${v ? this.expr(v) : p.default === undefined ? "null" : JSON.stringify(p.default)}`;
        });
        // A callee that reads the caller (`auth`) or sets a session gets the caller's context.
        const ctx = a.context === true ? ", ctx" : "";
        return `(await ${this.names.fn(a.module, a.name)}(tx, { ${fields.join(", ")} }${ctx}))`;
      }
      case "fn":
        return `${this.names.pureFn(e.fn)}({ ${e.args.map((g) => `${g.name}: ${this.expr(g.value)}`).join(", ")} })`;
      case "record":
        return this.record(e);
      case "expect":
        return `rt.expect.${e.as}${e.orNull ? "OrNull" : ""}(${this.expr(e.value)}, ${JSON.stringify(e.path)})`;
    }
  }

  /** A `T??` argument or member as it is: undefined when absent. */
  private raw(e: IrExpr): string {
    if (e.kind === "param") {
      this.readsArgs = true;
      return `args.${e.name}`;
    }
    if (e.kind === "member") return e.optional ? this.optionalChain(e)! : `${this.operand(e.object)}.${e.property}`;
    return this.expr(e);
  }

  /** `obj?.prop` for an optional member of a typed value (null when the member is not one). */
  private optionalChain(e: Extract<IrExpr, { kind: "member" }>): string | null {
    const untyped = e.object.type.kind === "unknown" || (e.object.type.kind === "scalar" && e.object.type.type === "json");
    if (!e.optional || untyped) return null;
    // `auth.id` where auth may be null: `ctx.caller?.id` (undefined reads as null after `?? null`).
    const obj = e.object.kind === "caller" ? "ctx.caller" : this.operand(e.object);
    return `${obj}?.${e.property}`;
  }

  /** An operand of a unary or member expression: parenthesized unless it is atomic. */
  private operand(e: IrExpr): string {
    const s = this.expr(e);
    return /^[\w.$]+$/.test(s) || /^\(.*\)$/.test(s) ? s : `(${s})`;
  }

  private binary(e: Extract<IrExpr, { kind: "binary" }>): string {
    const l = this.expr(e.left);
    const r = this.expr(e.right);
    switch (e.op) {
      case "concat":
        return isNullable(e.left.type) || isNullable(e.right.type) ? `rt.concat(${l}, ${r})` : `(${l} + ${r})`;
      case "eq":
        return `(${l} === ${r})`;
      case "ne":
        return `(${l} !== ${r})`;
      default: {
        const ops = { or: "||", and: "&&", lt: "<", le: "<=", gt: ">", ge: ">=", add: "+", sub: "-", mul: "*", div: "/" } as const;
        return `(${l} ${ops[e.op]} ${r})`;
      }
    }
  }

  /** One INSERT into the jobs table on the caller's executor; the job's defaults are filled when it runs. */
  private enqueue(e: Extract<IrExpr, { kind: "enqueue" }>): string {
    const job = this.model.actions.find((x) => x.module === e.module && x.name === e.job && x.job !== undefined)!;
    const given = new Map(e.args.map((a) => [a.name, a.value]));
    const fields = job.params.filter((p) => given.has(p.name)).map((p) => `${p.name}: ${this.expr(given.get(p.name)!)}`);
    const options: string[] = [];
    if (e.delayMs !== undefined) options.push(`delayMs: ${e.delayMs}`);
    if (e.unique !== undefined) options.push(`unique: ${this.expr(e.unique)}`);
    if (e.priority !== undefined) options.push(`priority: ${e.priority}`);
    const opts = options.length === 0 ? "" : `, { ${options.join(", ")} }`;
    return `(await rt.enqueue(tx, ${this.names.job(e.module, e.job)}, { ${fields.join(", ")} }${opts}))`;
  }

  private builtin(e: Extract<IrExpr, { kind: "builtin" }>): string {
    const args = e.args.map((a) => this.expr(a));
    switch (e.name) {
      case "now":
        return "rt.now()";
      // The running job (runtime/jobs/types.ts JobRun), a parameter of every job's function.
      case "job_id":
        return "job.id";
      case "has":
        return `(${this.raw(e.args[0])} !== undefined)`;
      case "coalesce": {
        // An optional member's chain ends in `?? null` on its own: coalesce it once (`user.address?.city ?? "nowhere"`).
        const a = e.args[0];
        const chain = a?.kind === "member" ? this.optionalChain(a) : null;
        return `(${chain ?? args[0]} ?? ${args[1]})`;
      }
      // One contains for text and lists: runtime/lang/builtins.ts looks at what it is given.
      case "contains":
        return `rt.contains(${args.join(", ")})`;
      case "unique":
        return `rt.lists.unique(${args.join(", ")})`;
      case "sort": {
        // A list read from json holds what the client sent: sort checks it is of one kind, naming the path.
        const list = e.args[0];
        const path = list?.kind === "expect" ? `, ${JSON.stringify(list.path)}` : "";
        return `rt.lists.sort(${args.join(", ")}${path})`;
      }
      case "join": {
        // Items of a list read from json are the client's choice: join checks them, naming the path.
        const list = e.args[0];
        const path = list?.kind === "expect" ? `, ${JSON.stringify(list.path)}` : "";
        return `rt.lists.join(${args.join(", ")}${path})`;
      }
      // The sign-in throttle reads its counters on the action's executor (runtime/limits/throttle.ts);
      // on that executor, inside a password transaction, the hash runs outside it (runtime/auth/password-work.ts).
      case "verify_password": {
        const rehash = e.rehash ? [this.rehash(e.rehash)] : [];
        if (e.throttled === true) return `(await rt.verifyPasswordThrottled(${["tx", "ctx", ...args, ...rehash].join(", ")}))`;
        return `(await rt.verifyPassword(${[...args, "tx", ...rehash].join(", ")}))`;
      }
      case "issue_token":
        return `(await rt.issueToken(ctx, ${args.join(", ")}))`;
      case "start_session":
        return `(await rt.startSession(tx, ctx, ${args.join(", ")}))`;
      case "end_session":
        return "(await rt.endSession(tx, ctx))";
      case "revoke":
        return `(await rt.revoke(tx, ctx, ${args.join(", ")}))`;
      // Counting from 0 unless told: range(n) is range(0, n).
      case "range":
        return `rt.values.range(${args.length === 1 ? `0, ${args[0]}` : args.join(", ")})`;
      case "min":
      case "max":
        return `Math.${e.name}(${args.join(", ")})`;
      default: {
        const value = VALUE_BUILTINS[e.name];
        if (value !== undefined) return `rt.values.${value}(${args.join(", ")})`;
        return `rt.${RUNTIME_NAMES[e.name] ?? e.name}(${args.join(", ")})`;
      }
    }
  }

  /** The write-back of an upgraded hash; called only after a match, so the row is there. */
  private rehash(r: Rehash): string {
    const row = this.expr(r.row);
    const keys = r.key.map((k) => `${row}${isNullable(r.row.type) ? "!" : ""}.${k}`).join(", ");
    return `(before, next) => ${this.names.recordFn(r.statement)}(tx, ${keys}, before, next)`;
  }

  private record(e: Extract<IrExpr, { kind: "record" }>): string {
    const fn = this.names.recordFn(e.statement);
    switch (e.op) {
      case "get":
      case "delete":
        return `(await ${fn}(tx, ${e.key.map((k) => this.expr(k)).join(", ")}))`;
      case "insert":
        return `(await ${fn}(tx, ${this.insertRow(e.resource, e.fields)}))`;
      case "update":
      case "patch":
        return `(await ${fn}(tx, ${e.key.map((k) => this.expr(k)).join(", ")}, { ${e.fields.map((w) => `${w.field}: ${this.given(e.resource, w, "undefined")}`).join(", ")} }))`;
    }
  }

  /**
   * The whole row an insert writes: given fields, else the default, else null. A key the
   * server makes is made here; an `id(int)` key the insert leaves out is the database's to number.
   */
  private insertRow(resource: string, writes: RecordWrite[]): string {
    const r = this.model.resources.find((x) => x.name === resource)!;
    const made = { ulid: "rt.newId()", uuid: "rt.uuid4()", uuid7: "rt.uuid7()" } as const;
    const fields = r.fields.flatMap((f) => {
      const w = writes.find((x) => x.field === f.name);
      let value: string;
      const fallback = f.default?.kind === "now" ? "rt.now()" : f.default?.kind === "value" ? JSON.stringify(f.default.value) : "null";
      if (f.generated === "identity" && !w) return [];
      if (f.generated !== undefined && f.generated !== "identity") value = made[f.generated];
      else if (w) value = this.given(resource, w, fallback);
      else value = fallback;
      return [`${f.name}: ${value}`];
    });
    return `{ ${fields.join(", ")} }`;
  }

  /**
   * A written value; one that is a `T??` value as it is writes `absent` when the call left it
   * out: an update's undefined (the field keeps its value), an insert's default.
   */
  private given(resource: string, w: RecordWrite, absent: string): string {
    if (!w.absent) return this.write(resource, w);
    const raw = this.raw(w.value);
    if (w.check === "none" && absent === "undefined") return raw;
    if (w.check === "none" && absent === "null") return this.expr(w.value);
    return `${raw} === undefined ? ${absent} : ${this.write(resource, { ...w, absent: undefined })}`;
  }

  /** A written value with the run-time check its static type could not rule out. */
  private write(resource: string, w: RecordWrite): string {
    const v = this.expr(w.value);
    const label = JSON.stringify(`${resource}.${w.field}`);
    switch (w.check) {
      case "none":
        return v;
      case "notNull":
        return `rt.notNull(${v}, ${label})`;
      case "enum":
        return `rt.oneOf(${v}, ${label}, ${this.names.enumValues(resource, w.field)})`;
      case "enumOrNull":
        return `rt.oneOfOrNull(${v}, ${label}, ${this.names.enumValues(resource, w.field)})`;
      // Hashed here, on every write: the plain text never reaches the database.
      case "password":
        return `(await rt.hashPassword(${isNullable(w.value.type) ? `rt.notNull(${v}, ${label})` : v}, tx))`;
      case "passwordOrNull":
        return `(await rt.hashPasswordOrNull(${v}, tx))`;
    }
  }
}
