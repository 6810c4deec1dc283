// Before emitting: names must resolve (else jq itself would refuse the program), every
// construct must be in the compiled subset (else the program runs on jq-web), and every
// place that prints a number must know how jq 1.7.1 would print it.
//
// jq 1.7.1 prints a number exactly as it was written when it came from JSON text or the
// program (`1E+21`: decNumber), and through its dtoa when it was computed (`1e+21`). A
// "provenance" per expression says which numbers its outputs may hold: LIT (as written),
// COMP (computed), both (MIXED: cannot be printed exactly) or none worth telling apart.

import type { Span } from "../parse/ast.js";
import type { JqNode, Pattern } from "./ast.js";
import { numText } from "../../runtime/jq/index.js";
import { JQ_BUILTINS, nearestBuiltin } from "./builtins.js";
import { SUBSET } from "./subset.js";

export type Prov = 0 | 1 | 2 | 3;
export const NONE: Prov = 0;
export const LIT: Prov = 1;
export const COMP: Prov = 2;
export const MIXED: Prov = 3;

export class Unsupported extends Error {}

export type Problem =
  | { kind: "unknownFunction"; name: string; arity: number; near: string | null; span: Span }
  | { kind: "unknownVariable"; name: string; span: Span }
  | { kind: "nonStringKey"; found: string; span: Span };

export interface Analysis {
  /** For each node that prints numbers: whether they print as computed (true) or as written. */
  computed: Map<JqNode, boolean>;
  /** Arithmetic can make infinities and NaN, which jq prints differently: outputs get normalised. */
  arithmetic: boolean;
}

const GLOBAL_VARS = new Set(["params", "query", "ENV"]);

/** Names that jq would reject: unknown functions and unbound variables. */
export function resolve(root: JqNode): Problem[] {
  const problems: Problem[] = [];
  const defs: string[] = [];
  const walk = (n: JqNode | null, vars: ReadonlySet<string>): void => {
    if (!n) return;
    switch (n.kind) {
      case "Var":
        if (!vars.has(n.name) && !GLOBAL_VARS.has(n.name)) problems.push({ kind: "unknownVariable", name: n.name, span: n.span });
        return;
      case "Call": {
        const sig = `${n.name}/${n.args.length}`;
        const builtin = n.args.length === 0 && ["true", "false", "null"].includes(n.name);
        if (!builtin && !JQ_BUILTINS.has(sig) && !defs.includes(sig) && !vars.has(`&${sig}`))
          problems.push({ kind: "unknownFunction", name: n.name, arity: n.args.length, near: nearestBuiltin(n.name, n.args.length), span: n.span });
        n.args.forEach((a) => walk(a, vars));
        return;
      }
      case "As": {
        walk(n.source, vars);
        walk(n.body, bindAll(vars, n.patterns));
        return;
      }
      case "Reduce":
      case "Foreach": {
        walk(n.source, vars);
        walk(n.init, vars);
        const inner = bindAll(vars, [n.pattern]);
        walk(n.update, inner);
        if (n.kind === "Foreach") walk(n.extract, inner);
        return;
      }
      case "FuncDef": {
        // Parameters: `$x` binds a variable and a function; `f` binds a function.
        const inner = new Set(vars);
        for (const p of n.params) {
          if (p.startsWith("$")) {
            inner.add(p.slice(1));
            inner.add(`&${p.slice(1)}/0`);
          } else inner.add(`&${p}/0`);
        }
        defs.push(`${n.name}/${n.params.length}`);
        walk(n.body, inner);
        walk(n.rest, vars);
        return;
      }
      case "Object":
        for (const e of n.entries) {
          if (e.key.kind === "var" && !vars.has(e.key.name) && !GLOBAL_VARS.has(e.key.name))
            problems.push({ kind: "unknownVariable", name: e.key.name, span: e.span });
          if (e.key.kind === "expr") {
            const found = constantKind(e.key.expr);
            if (found && found !== "string") problems.push({ kind: "nonStringKey", found, span: e.key.expr.span });
            walk(e.key.expr, vars);
          }
          walk(e.value, vars);
        }
        return;
      case "String":
        for (const p of n.parts) if ("expr" in p) walk(p.expr, vars);
        return;
      default:
        for (const child of children(n)) walk(child, vars);
    }
  };
  walk(root, new Set());
  return problems;
}

/** The type of a key jq sees as a constant (and rejects when it is not a string). */
function constantKind(n: JqNode): string | null {
  if (n.kind === "Number") return "a number";
  if (n.kind === "Array") return "an array";
  if (n.kind === "Object") return "an object";
  if (n.kind === "Call" && n.args.length === 0 && (n.name === "true" || n.name === "false")) return "a boolean";
  if (n.kind === "Call" && n.args.length === 0 && n.name === "null") return "null";
  return null;
}

function bindAll(vars: ReadonlySet<string>, patterns: Pattern[]): Set<string> {
  const out = new Set(vars);
  const bind = (p: Pattern): void => {
    if (p.kind === "VarPattern") out.add(p.name);
    else if (p.kind === "ArrayPattern") p.elements.forEach(bind);
    else p.names.forEach((x) => out.add(x));
  };
  patterns.forEach(bind);
  return out;
}

function children(n: JqNode): JqNode[] {
  const out: (JqNode | null)[] = [];
  switch (n.kind) {
    case "Index":
      out.push(n.target, n.key);
      break;
    case "Slice":
      out.push(n.target, n.from, n.to);
      break;
    case "Iterate":
      out.push(n.target);
      break;
    case "Pipe":
    case "Comma":
    case "Binary":
    case "Assign":
      out.push(n.left, n.right);
      break;
    case "Neg":
      out.push(n.operand);
      break;
    case "Array":
      out.push(n.body);
      break;
    case "If":
      out.push(n.cond, n.then, n.else);
      break;
    case "Try":
      out.push(n.body, n.handler);
      break;
    case "Label":
      out.push(n.body);
      break;
    default:
      break;
  }
  return out.filter((x): x is JqNode => x !== null);
}

/** Checks the subset and works out number printing; throws Unsupported with a reason. */
export function analyze(root: JqNode): Analysis {
  const a: Analysis = { computed: new Map(), arithmetic: false };
  prov(root, LIT, new Map(), a);
  return a;
}

function unsupported(what: string): never {
  throw new Unsupported(`uses ${what}, which svc does not compile to JavaScript`);
}

/** The provenance of a numeric literal: canonical text prints the same either way. */
export function literalProv(value: number, text: string): Prov {
  if (String(value) !== text) return MIXED;
  return numText(value, true) === numText(value, false) ? NONE : LIT;
}

/** Records that `node` prints values of provenance `p`. */
function prints(node: JqNode, p: Prov, what: string, a: Analysis): void {
  if (p === MIXED) unsupported(`${what} prints numbers that may be both input data and computed, which jq 1.7 formats differently`);
  a.computed.set(node, p === COMP);
}

/** Whether a `catch` handler can run without the error message (whose wording is jq's). */
function ignoresInput(n: JqNode): boolean {
  switch (n.kind) {
    case "Number":
    case "Var":
      return true;
    case "String":
      return n.parts.every((p) => "text" in p);
    case "Call":
      return n.args.length === 0 && ["true", "false", "null", "empty"].includes(n.name);
    case "Array":
      return n.body === null || ignoresInput(n.body);
    case "Comma":
      return ignoresInput(n.left) && ignoresInput(n.right);
    case "Object":
      return n.entries.every((e) => e.key.kind === "const" && e.value !== null && ignoresInput(e.value));
    default:
      return false;
  }
}

/** A key for `.[k]` that is statically a string or a number. */
function plainKey(n: JqNode): boolean {
  if (n.kind === "String" || n.kind === "Number") return true;
  if (n.kind === "Neg") return plainKey(n.operand) && n.operand.kind === "Number";
  return false;
}

export function prov(n: JqNode, input: Prov, vars: Map<string, Prov>, a: Analysis): Prov {
  const p = (x: JqNode, i: Prov = input, v: Map<string, Prov> = vars): Prov => prov(x, i, v, a);
  switch (n.kind) {
    case "Identity":
      return input;
    case "Number":
      return literalProv(n.value, n.text);
    case "String": {
      if (n.format !== null && !["text", "json", "html", "uri"].includes(n.format)) unsupported(`the format @${n.format}`);
      for (const part of n.parts) if ("expr" in part) prints(part.expr, p(part.expr), "string interpolation", a);
      return NONE;
    }
    case "Format":
      if (!["text", "json", "html", "uri"].includes(n.name)) unsupported(`the format @${n.name}`);
      prints(n, input, `@${n.name}`, a);
      return NONE;
    case "Var":
      if (n.name === "params" || n.name === "query") return vars.get(n.name) ?? LIT;
      if (!vars.has(n.name)) unsupported(`the variable $${n.name}`);
      return vars.get(n.name)!;
    case "Index":
      if (!plainKey(n.key)) unsupported("an index `.[e]` whose key is not a literal string or number");
      p(n.key);
      return p(n.target);
    case "Iterate":
      return p(n.target);
    case "Pipe":
      return p(n.right, p(n.left));
    case "Comma":
      return (p(n.left) | p(n.right)) as Prov;
    case "Neg":
      p(n.operand);
      return COMP;
    case "Binary":
      if (["+", "-", "*", "/", "%"].includes(n.op)) a.arithmetic = true;
      return binary(n, p);
    case "Array":
      return n.body ? p(n.body) : NONE;
    case "Object": {
      let out: Prov = NONE;
      for (const e of n.entries) {
        if (e.key.kind === "expr") p(e.key.expr);
        if (e.key.kind === "var" && !vars.has(e.key.name) && e.key.name !== "params" && e.key.name !== "query") unsupported(`the variable $${e.key.name}`);
        const value = e.value === null ? (e.key.kind === "var" ? (vars.get(e.key.name) ?? LIT) : input) : p(e.value);
        out = (out | value) as Prov;
      }
      return out;
    }
    case "If":
      p(n.cond);
      return (p(n.then) | (n.else ? p(n.else) : input)) as Prov;
    case "Try":
      if (n.handler && !ignoresInput(n.handler)) unsupported("a `catch` handler that reads the error message");
      return (p(n.body) | (n.handler ? p(n.handler) : NONE)) as Prov;
    case "Reduce": {
      if (n.pattern.kind !== "VarPattern") unsupported("destructuring patterns");
      const name = n.pattern.name;
      const item = p(n.source);
      const inner = new Map(vars).set(name, item);
      // The accumulator's provenance is a fixed point: at most two widenings on a 2-bit lattice.
      let acc = p(n.init);
      for (let i = 0; i < 3; i++) acc = (acc | p(n.update, acc, inner)) as Prov;
      return acc;
    }
    case "As": {
      if (n.patterns.length !== 1 || n.patterns[0].kind !== "VarPattern") unsupported("destructuring patterns");
      const v = p(n.source);
      return p(n.body, input, new Map(vars).set(n.patterns[0].name, v));
    }
    case "Call":
      return call(n, input, p, a);
    case "RecurseAll":
      return unsupported("`..`");
    case "Loc":
      return unsupported("$__loc__");
    case "Slice":
      return unsupported("slices `.[a:b]`");
    case "Assign":
      return unsupported(`the assignment operator \`${n.op}\``);
    case "Foreach":
      return unsupported("`foreach`");
    case "Label":
    case "Break":
      return unsupported("`label`/`break`");
    case "FuncDef":
      return unsupported("function definitions (`def`)");
    case "Module":
      return unsupported(`\`${n.what}\` directives`);
  }
}

function binary(n: Extract<JqNode, { kind: "Binary" }>, p: (x: JqNode, i?: Prov) => Prov): Prov {
  const l = p(n.left);
  const r = p(n.right);
  const isNum = (x: JqNode) => x.kind === "Number";
  // An object, array or string on one side rules out adding numbers.
  const notNum = (x: JqNode) => x.kind === "Object" || x.kind === "Array" || x.kind === "String";
  switch (n.op) {
    case "+":
    case "*":
      // With a number on one side, the other is a number (a computed result) or null (the number back).
      if (isNum(n.left) || isNum(n.right)) return COMP;
      return notNum(n.left) || notNum(n.right) ? ((l | r) as Prov) : ((l | r | COMP) as Prov);
    case "-":
      return isNum(n.right) ? COMP : ((l | COMP) as Prov);
    case "/":
    case "%":
      return COMP;
    case "//":
      return (l | r) as Prov;
    default:
      return NONE;
  }
}

function call(n: Extract<JqNode, { kind: "Call" }>, input: Prov, p: (x: JqNode, i?: Prov) => Prov, a: Analysis): Prov {
  const sig = `${n.name}/${n.args.length}`;
  if (n.args.length === 0 && ["true", "false", "null"].includes(n.name)) return NONE;
  const spec = SUBSET.get(sig);
  if (!spec) return unsupported(`the builtin ${sig}`);
  if (spec.arithmetic) a.arithmetic = true;
  if (sig === "test/1") {
    const re = n.args[0];
    if (re.kind !== "String" || re.format !== null || !re.parts.every((x) => "text" in x) || !/^[\p{L}\p{N} _\-:/,;!@%&=<>'"~`]*$/u.test(re.parts.map((x) => ("text" in x ? x.text : "")).join("")))
      unsupported("test/1 with a regular expression other than plain text");
  }
  // Closures see elements of the input (same provenance), except a condition after a generator.
  const argProvs: Prov[] = [];
  n.args.forEach((arg, i) => argProvs.push(p(arg, i === 1 && (sig === "any/2" || sig === "all/2") ? argProvs[0] : input)));
  if (spec.prints) prints(n, spec.prints === "input" ? input : argProvs[0], sig, a);
  return spec.result(input, argProvs);
}
