// jq AST → JavaScript, in continuation-passing style: `emit(node, input, k)` returns
// statements that run `k(v)` once for each output `v` of `node` on `input`, in jq's order.
// A one-output node becomes straight-line code (`const v1 = rt.jq.index(input, "a");`);
// generators become loops. Errors are JavaScript exceptions (rt.jq.JqError); `try` stops
// at errors from its own body, not from code downstream of it (rt.jq.pass marks those),
// and `first`, `limit`, `any` and `all` stop early with a private exception.

import type { Analysis } from "../../jq/analyze.js";
import type { JqNode, ObjectEntry } from "../../jq/ast.js";
import { emitCall } from "./emit-builtins.js";

/** Receives a JavaScript expression (an identifier or a literal) and returns statements. */
export type K = (v: string) => string;

const SHARE_ABOVE = 160;
const INDEX_LIKE = /^(?:0|[1-9]\d{0,9})$/;

export class Emitter {
  private counter = 0;
  /** How many continuations were turned into local functions (a `return` there would misfire). */
  shared = 0;
  private readonly varNames = new Map<string, string>();

  constructor(readonly analysis: Analysis) {}

  fresh(prefix: string): string {
    return `${prefix}${++this.counter}`;
  }

  /** `const x = expr;` then the continuation. */
  bind(expr: string, k: K, prefix = "v"): string {
    const v = this.fresh(prefix);
    return `const ${v} = ${expr};\n${k(v)}`;
  }

  /**
   * A continuation that will be called from several places. It is emitted once, with a
   * placeholder for its value: small ones are then repeated (each copy in its own block, so
   * their declarations do not clash), larger ones become a local function.
   */
  share(k: K): { pre: string; k: K } {
    const hole = `\u0001hole${++this.counter}\u0001`;
    const body = k(hole);
    if (body.length <= SHARE_ABOVE) return { pre: "", k: (v) => `{\n${body.split(hole).join(v)}\n}` };
    this.shared++;
    const f = this.fresh("k");
    const arg = this.fresh("x");
    return { pre: `const ${f} = (${arg}: unknown) => {\n${body.split(hole).join(arg)}\n};\n`, k: (v) => `${f}(${v});` };
  }

  truthy(v: string): string {
    // Values bound as `b<n>` are always booleans.
    if (/^b\d+$/.test(v) || v === "true" || v === "false") return v;
    return `(${v} !== null && ${v} !== false)`;
  }

  computed(node: JqNode): boolean {
    return this.analysis.computed.get(node) ?? false;
  }

  /** A jq variable's JavaScript name (bindings are renamed apart, so shadowing is safe). */
  variable(name: string): string {
    if (name === "params" || name === "query") return this.varNames.get(name) ?? `$${name}`;
    const v = this.varNames.get(name);
    if (!v) throw new Error(`jq emitter: unbound $${name} after analysis`);
    return v;
  }

  withVariable(name: string, js: string, f: () => string): string {
    const saved = this.varNames.get(name);
    this.varNames.set(name, js);
    try {
      return f();
    } finally {
      if (saved === undefined) this.varNames.delete(name);
      else this.varNames.set(name, saved);
    }
  }

  /** Stops a generator early: `throw` the label inside, catch exactly it outside. */
  stoppable(body: (stop: string) => string): string {
    const stop = this.fresh("stop");
    const e = this.fresh("e");
    return `const ${stop} = {};\ntry {\n${body(stop)}\n} catch (${e}) {\nif (${e} !== ${stop}) throw ${e};\n}\n`;
  }

  emit(n: JqNode, input: string, k: K): string {
    switch (n.kind) {
      case "Identity":
        return k(input);
      case "Number":
        return k(String(n.value));
      case "String":
        return this.string(n, input, k);
      case "Format":
        return this.bind(`rt.jq.format(${JSON.stringify(n.name)}, ${input}, ${this.computed(n)})`, k, "s");
      case "Var":
        return k(this.variable(n.name));
      case "Index":
        return this.emit(n.key, input, (key) =>
          this.emit(n.target, input, (t) =>
            n.optional
              ? this.bind(`rt.jq.indexOpt(${t}, ${key})`, (v) => `if (${v} !== rt.jq.NONE) {\n${k(v)}\n}`)
              : this.bind(`rt.jq.index(${t}, ${key})`, k),
          ),
        );
      case "Iterate":
        return this.emit(n.target, input, (t) => {
          const e = this.fresh("e");
          return `for (const ${e} of rt.jq.${n.optional ? "iterOpt" : "iter"}(${t})) {\n${k(e)}\n}`;
        });
      case "Pipe":
        return this.emit(n.left, input, (v) => this.emit(n.right, v, k));
      case "Comma": {
        const s = this.share(k);
        return `${s.pre}${this.emit(n.left, input, s.k)}\n${this.emit(n.right, input, s.k)}`;
      }
      case "Neg":
        return this.emit(n.operand, input, (v) => this.bind(`rt.jq.negate(${v})`, k));
      case "Binary":
        return this.binary(n, input, k);
      case "Array":
        return this.array(n.body, input, k);
      case "Object":
        return this.object(n.entries, input, k);
      case "If": {
        const s = this.share(k);
        return (
          s.pre +
          this.emit(n.cond, input, (c) => {
            const otherwise = n.else ? this.emit(n.else, input, s.k) : s.k(input);
            return `if (${this.truthy(c)}) {\n${this.emit(n.then, input, s.k)}\n} else {\n${otherwise}\n}`;
          })
        );
      }
      case "Try":
        return this.try(n.body, n.handler, input, k);
      case "Reduce":
        return this.reduce(n, input, k);
      case "As": {
        const p = n.patterns[0];
        return this.emit(n.source, input, (v) => {
          const js = this.fresh(`$${p.kind === "VarPattern" ? p.name : "x"}_`);
          return `const ${js} = ${v};\n` + this.withVariable(p.kind === "VarPattern" ? p.name : "", js, () => this.emit(n.body, input, k));
        });
      }
      case "Call":
        if (n.args.length === 0 && ["true", "false", "null"].includes(n.name)) return k(n.name);
        return emitCall(this, n, input, k);
      default:
        throw new Error(`jq emitter: ${n.kind} is outside the subset (analysis should have said so)`);
    }
  }

  /** Collects every output into a fresh array. */
  collect(n: JqNode, input: string): { code: string; array: string } {
    const array = this.fresh("a");
    return { code: `const ${array}: unknown[] = [];\n${this.emit(n, input, (v) => `${array}.push(${v});`)}\n`, array };
  }

  private array(body: JqNode | null, input: string, k: K): string {
    if (!body) return this.bind("[] as unknown[]", k, "a");
    const c = this.collect(body, input);
    return c.code + k(c.array);
  }

  // Interpolations run as nested loops, the last one outermost (jq builds the string with
  // `+`, whose right operand loops outside the left).
  private string(n: Extract<JqNode, { kind: "String" }>, input: string, k: K): string {
    const fmt = n.format ?? "text";
    const values = new Map<number, string>();
    const go = (i: number): string => {
      if (i < 0) {
        const pieces = n.parts.map((p, j) => ("text" in p ? JSON.stringify(p.text) : values.get(j)!));
        if (pieces.length === 0) return k('""');
        if (pieces.length === 1 && "text" in n.parts[0]) return k(pieces[0]);
        return this.bind(pieces.join(" + "), k, "s");
      }
      const part = n.parts[i];
      if ("text" in part) return go(i - 1);
      return this.emit(part.expr, input, (v) => {
        const call = fmt === "text" ? `rt.jq.tostring(${v}, ${this.computed(part.expr)})` : `rt.jq.format(${JSON.stringify(fmt)}, ${v}, ${this.computed(part.expr)})`;
        values.set(i, call);
        return go(i - 1);
      });
    };
    return go(n.parts.length - 1);
  }

  private binary(n: Extract<JqNode, { kind: "Binary" }>, input: string, k: K): string {
    const truthy = (v: string) => this.truthy(v);
    switch (n.op) {
      case "and":
      case "or": {
        const s = this.share(k);
        const isAnd = n.op === "and";
        return (
          s.pre +
          this.emit(n.left, input, (l) => {
            const shortCircuit = isAnd ? `!${truthy(l)}` : truthy(l);
            const rest = this.emit(n.right, input, (r) => this.bind(truthy(r), s.k, "b"));
            return `if (${shortCircuit}) {\n${s.k(isAnd ? "false" : "true")}\n} else {\n${rest}\n}`;
          })
        );
      }
      case "//": {
        const s = this.share(k);
        const found = this.fresh("found");
        return (
          s.pre +
          `let ${found} = false;\n` +
          this.emit(n.left, input, (l) => `if (${truthy(l)}) {\n${found} = true;\n${s.k(l)}\n}`) +
          `\nif (!${found}) {\n${this.emit(n.right, input, s.k)}\n}`
        );
      }
      default: {
        const op = BINARY[n.op];
        return this.emit(n.right, input, (r) => this.emit(n.left, input, (l) => this.bind(op(l, r), k, n.op.length === 1 && "+-*/%".includes(n.op) ? "n" : "b")));
      }
    }
  }

  // Pairs run as nested loops in order, each key outside its value.
  private object(entries: ObjectEntry[], input: string, k: K): string {
    const keys: string[] = [];
    const values: string[] = [];
    const literalKeys = entries.every((e) => e.key.kind === "const" || (e.key.kind === "var" && e.value === null));
    const constNames = entries.map((e) => (e.key.kind === "const" || e.key.kind === "var" ? e.key.name : ""));
    const plain = literalKeys && new Set(constNames).size === constNames.length && !constNames.some((x) => INDEX_LIKE.test(x));
    const go = (i: number): string => {
      if (i === entries.length) {
        if (plain) {
          const props = constNames.map((name, j) => `${name === "__proto__" ? `["__proto__"]` : JSON.stringify(name)}: ${values[j]}`);
          return this.bind(`{ ${props.join(", ")} }`, k, "o");
        }
        const args = keys.flatMap((key, j) => [key, values[j]]);
        return this.bind(`rt.jq.object(${args.join(", ")})`, k, "o");
      }
      const e = entries[i];
      const withKey = (key: string): string => {
        keys[i] = key;
        if (e.value !== null) return this.emit(e.value, input, (v) => ((values[i] = v), go(i + 1)));
        if (e.key.kind === "var") return (values[i] = this.variable(e.key.name)), go(i + 1);
        return this.bind(`rt.jq.index(${input}, ${key})`, (v) => ((values[i] = v), go(i + 1)));
      };
      if (e.key.kind === "const") return withKey(JSON.stringify(e.key.name));
      if (e.key.kind === "var") return withKey(e.value === null ? JSON.stringify(e.key.name) : this.variable(e.key.name));
      return this.emit(e.key.expr, input, withKey);
    };
    return go(0);
  }

  private try(body: JqNode, handler: JqNode | null, input: string, k: K): string {
    const s = this.share(k);
    const e1 = this.fresh("e");
    const e2 = this.fresh("e");
    const inside = this.emit(body, input, (v) => `try {\n${s.k(v)}\n} catch (${e1}) {\nthrow rt.jq.pass(${e1});\n}`);
    const onError = handler ? this.emit(handler, "null", s.k) : "";
    return `${s.pre}try {\n${inside}\n} catch (${e2}) {\nrt.jq.caught(${e2});\n${onError}\n}`;
  }

  private reduce(n: Extract<JqNode, { kind: "Reduce" }>, input: string, k: K): string {
    const name = n.pattern.kind === "VarPattern" ? n.pattern.name : "";
    return this.emit(n.init, input, (init) => {
      const acc = this.fresh("acc");
      const last = this.fresh("last");
      const loop = this.emit(n.source, input, (item) => {
        const js = this.fresh(`$${name}_`);
        const update = this.withVariable(name, js, () => this.emit(n.update, acc, (u) => `${last} = ${u};`));
        return `const ${js} = ${item};\nlet ${last}: unknown = rt.jq.NONE;\n${update}\n${acc} = ${last} === rt.jq.NONE ? null : ${last};`;
      });
      return `let ${acc}: unknown = ${init};\n${loop}\n${k(acc)}`;
    });
  }
}

const BINARY: Record<string, (l: string, r: string) => string> = {
  "+": (l, r) => `rt.jq.plus(${l}, ${r})`,
  "-": (l, r) => `rt.jq.minus(${l}, ${r})`,
  "*": (l, r) => `rt.jq.times(${l}, ${r})`,
  "/": (l, r) => `rt.jq.divide(${l}, ${r})`,
  "%": (l, r) => `rt.jq.modulo(${l}, ${r})`,
  "==": (l, r) => `rt.jq.equals(${l}, ${r})`,
  "!=": (l, r) => `!rt.jq.equals(${l}, ${r})`,
  "<": (l, r) => `rt.jq.cmp(${l}, ${r}) < 0`,
  "<=": (l, r) => `rt.jq.cmp(${l}, ${r}) <= 0`,
  ">": (l, r) => `rt.jq.cmp(${l}, ${r}) > 0`,
  ">=": (l, r) => `rt.jq.cmp(${l}, ${r}) >= 0`,
};
