// Code for the builtins of compiler/jq/subset.ts. Each follows jq 1.7.1's definition (the
// jq-defined ones from src/builtin.jq: e.g. `map(f)` is `[.[] | f]`, `first(f)` stops at
// the first output, `any(g; c)` at the first truthy condition) or C implementation.

import type { JqNode } from "../../jq/ast.js";
import type { Emitter, K } from "./emit.js";

type Call = Extract<JqNode, { kind: "Call" }>;
type Builtin = (em: Emitter, n: Call, input: string, k: K) => string;

const simple = (fn: string): Builtin => (em, _n, input, k) => em.bind(`rt.jq.${fn}(${input})`, k);

/** A C builtin with one `$x` argument: once per output of the argument. */
const withArg = (call: (input: string, a: string) => string): Builtin => (em, n, input, k) =>
  em.emit(n.args[0], input, (a) => em.bind(call(input, a), k));

const selectWhen = (test: (v: string) => string): Builtin => (_em, _n, input, k) => `if (${test(input)}) {\n${k(input)}\n}`;

/** `[f]` for every element of the input: the sort keys of `sort_by(f)` and friends. */
function keysBy(em: Emitter, f: JqNode, input: string): { code: string; keys: string } {
  const keys = em.fresh("ks");
  const e = em.fresh("e");
  const c = em.collect(f, e);
  return { code: `const ${keys}: unknown[][] = [];\nfor (const ${e} of rt.jq.iter(${input})) {\n${c.code}${keys}.push(${c.array});\n}\n`, keys };
}

const byKeys = (call: (input: string, keys: string) => string): Builtin => (em, n, input, k) => {
  const ks = keysBy(em, n.args[0], input);
  return ks.code + em.bind(call(input, ks.keys), k);
};

/** The first output of `f` on `input` into `target` (left as NONE when there is none). */
function firstInto(em: Emitter, f: JqNode, input: string, target: string): string {
  if (isSingle(f)) return em.emit(f, input, (v) => `${target} = ${v};`);
  return em.stoppable((stop) => em.emit(f, input, (v) => `${target} = ${v};\nthrow ${stop};`));
}

/** `any(g; c)` / `all(g; c)`: stops at the first condition that settles the answer. */
function anyAll(em: Emitter, isAny: boolean, gen: (k: K) => string, cond: JqNode | null, k: K): string {
  const res = em.fresh("res");
  const body = em.stoppable((stop) =>
    gen((item) => {
      const check = (c: string) => `if (${em.truthy(c)} === ${isAny}) {\n${res} = ${isAny};\nthrow ${stop};\n}`;
      return cond ? em.emit(cond, item, check) : check(item);
    }),
  );
  return `let ${res} = ${!isAny};\n${body}${k(res)}`;
}

const iterate = (em: Emitter, input: string) => (k: K) => {
  const e = em.fresh("e");
  return `for (const ${e} of rt.jq.iter(${input})) {\n${k(e)}\n}`;
};

const BUILTINS: Record<string, Builtin> = {
  "empty/0": () => "",
  "error/0": (_em, _n, input) => `throw rt.jq.error(${input});`,
  "error/1": (em, n, input) => em.emit(n.args[0], input, (m) => `throw rt.jq.error(${m});`),
  "not/0": (em, _n, input, k) => em.bind(`!${em.truthy(input)}`, k, "b"),
  "type/0": simple("typeOf"),
  "length/0": simple("length"),
  "keys/0": (em, _n, input, k) => em.bind(`rt.jq.keys(${input}, true)`, k),
  "keys_unsorted/0": (em, _n, input, k) => em.bind(`rt.jq.keys(${input}, false)`, k),
  "has/1": withArg((i, a) => `rt.jq.has(${i}, ${a})`),
  "contains/1": withArg((i, a) => `rt.jq.contains(${i}, ${a})`),
  "startswith/1": withArg((i, a) => `rt.jq.startsWith(${i}, ${a})`),
  "endswith/1": withArg((i, a) => `rt.jq.endsWith(${i}, ${a})`),
  "ltrimstr/1": withArg((i, a) => `rt.jq.ltrimstr(${i}, ${a})`),
  "rtrimstr/1": withArg((i, a) => `rt.jq.rtrimstr(${i}, ${a})`),
  "split/1": withArg((i, a) => `rt.jq.split(${i}, ${a})`),
  "join/1": (em, n, input, k) => em.emit(n.args[0], input, (a) => em.bind(`rt.jq.join(${input}, ${a}, ${em.computed(n)})`, k)),
  "test/1": (em, n, input, k) => {
    const re = n.args[0] as Extract<JqNode, { kind: "String" }>;
    const text = re.parts.map((p) => ("text" in p ? p.text : "")).join("");
    return em.bind(`rt.jq.testText(${input}, ${JSON.stringify(text)})`, k, "b");
  },
  "tostring/0": (em, n, input, k) => em.bind(`rt.jq.tostring(${input}, ${em.computed(n)})`, k, "s"),
  "tojson/0": (em, n, input, k) => em.bind(`rt.jq.dump(${input}, ${em.computed(n)})`, k, "s"),
  "ascii_downcase/0": simple("asciiDowncase"),
  "ascii_upcase/0": simple("asciiUpcase"),
  "to_entries/0": simple("toEntries"),
  "from_entries/0": simple("fromEntries"),
  "add/0": simple("addAll"),
  "sort/0": simple("sort"),
  "reverse/0": simple("reverse"),
  "min/0": (em, _n, input, k) => em.bind(`rt.jq.minMax(${input}, ${input}, true)`, k),
  "max/0": (em, _n, input, k) => em.bind(`rt.jq.minMax(${input}, ${input}, false)`, k),
  "first/0": (em, _n, input, k) => em.bind(`rt.jq.index(${input}, 0)`, k),
  "last/0": (em, _n, input, k) => em.bind(`rt.jq.index(${input}, -1)`, k),
  "unique/0": (em, _n, input, k) => {
    const e = em.fresh("e");
    const keys = em.fresh("ks");
    return `const ${keys} = rt.jq.iter(${input}).map((${e}) => [${e}]);\n` + em.bind(`rt.jq.groupBy(${input}, ${keys}).map((g) => g[0])`, k);
  },
  "values/0": selectWhen((v) => `${v} !== null`),
  "nulls/0": selectWhen((v) => `${v} === null`),
  "arrays/0": selectWhen((v) => `rt.jq.typeOf(${v}) === "array"`),
  "objects/0": selectWhen((v) => `rt.jq.typeOf(${v}) === "object"`),
  "iterables/0": selectWhen((v) => `(rt.jq.typeOf(${v}) === "array" || rt.jq.typeOf(${v}) === "object")`),
  "booleans/0": selectWhen((v) => `typeof ${v} === "boolean"`),
  "numbers/0": selectWhen((v) => `typeof ${v} === "number"`),
  "strings/0": selectWhen((v) => `typeof ${v} === "string"`),
  "scalars/0": selectWhen((v) => `(${v} === null || typeof ${v} !== "object")`),
  "select/1": (em, n, input, k) => em.emit(n.args[0], input, (c) => `if (${em.truthy(c)}) {\n${k(input)}\n}`),
  "map/1": (em, n, input, k) => {
    const e = em.fresh("e");
    const out = em.fresh("a");
    return `const ${out}: unknown[] = [];\nfor (const ${e} of rt.jq.iter(${input})) {\n${em.emit(n.args[0], e, (v) => `${out}.push(${v});`)}\n}\n${k(out)}`;
  },
  "map_values/1": (em, n, input, k) => {
    const e = em.fresh("e");
    const got = em.fresh("got");
    const fn = `(${e}: unknown) => {\nlet ${got}: unknown = rt.jq.NONE;\n${firstInto(em, n.args[0], e, got)}\nreturn ${got};\n}`;
    return em.bind(`rt.jq.mapValues(${input}, ${fn})`, k);
  },
  "with_entries/1": (em, n, input, k) => {
    const e = em.fresh("e");
    const out = em.fresh("a");
    const loop = `for (const ${e} of rt.jq.toEntries(${input})) {\n${em.emit(n.args[0], e, (v) => `${out}.push(${v});`)}\n}`;
    return `const ${out}: unknown[] = [];\n${loop}\n` + em.bind(`rt.jq.fromEntries(${out})`, k);
  },
  "sort_by/1": byKeys((i, ks) => `rt.jq.sortBy(${i}, ${ks})`),
  "group_by/1": byKeys((i, ks) => `rt.jq.groupBy(${i}, ${ks})`),
  "unique_by/1": byKeys((i, ks) => `rt.jq.groupBy(${i}, ${ks}).map((g) => g[0])`),
  "min_by/1": byKeys((i, ks) => `rt.jq.minMax(${i}, ${ks}, true)`),
  "max_by/1": byKeys((i, ks) => `rt.jq.minMax(${i}, ${ks}, false)`),
  "first/1": (em, n, input, k) => {
    const got = em.fresh("got");
    return `let ${got}: unknown = rt.jq.NONE;\n${firstInto(em, n.args[0], input, got)}\nif (${got} !== rt.jq.NONE) {\n${k(got)}\n}`;
  },
  "last/1": (em, n, input, k) => {
    const got = em.fresh("got");
    return `let ${got}: unknown = null;\n${em.emit(n.args[0], input, (v) => `${got} = ${v};`)}\n${k(got)}`;
  },
  "limit/2": (em, n, input, k) =>
    em.emit(n.args[0], input, (count) => {
      const s = em.share(k);
      const left = em.fresh("left");
      const counted = em.stoppable(
        (stop) =>
          `let ${left}: unknown = ${count};\n` +
          em.emit(n.args[1], input, (v) => `${left} = rt.jq.minus(${left}, 1);\n${s.k(v)}\nif (rt.jq.cmp(${left}, 0) <= 0) throw ${stop};`),
      );
      // A literal count (never negative: `-1` parses as a negation) settles the branch now.
      const literal = n.args[0].kind === "Number" ? n.args[0].value : null;
      if (literal !== null) return literal > 0 ? s.pre + counted : "";
      return `${s.pre}if (rt.jq.cmp(${count}, 0) > 0) {\n${counted}} else if (!rt.jq.equals(${count}, 0)) {\n${em.emit(n.args[1], input, s.k)}\n}`;
    }),
  "any/0": (em, _n, input, k) => anyAll(em, true, iterate(em, input), null, k),
  "all/0": (em, _n, input, k) => anyAll(em, false, iterate(em, input), null, k),
  "any/1": (em, n, input, k) => anyAll(em, true, iterate(em, input), n.args[0], k),
  "all/1": (em, n, input, k) => anyAll(em, false, iterate(em, input), n.args[0], k),
  "any/2": (em, n, input, k) => anyAll(em, true, (g) => em.emit(n.args[0], input, g), n.args[1], k),
  "all/2": (em, n, input, k) => anyAll(em, false, (g) => em.emit(n.args[0], input, g), n.args[1], k),
  "range/1": (em, n, input, k) =>
    em.emit(n.args[0], input, (upto) => {
      const i = em.fresh("i");
      return `rt.jq.rangeBounds(0, ${upto});\nfor (let ${i} = 0; ${i} < (${upto} as number); ${i}++) {\n${k(i)}\n}`;
    }),
  "range/2": (em, n, input, k) =>
    em.emit(n.args[0], input, (from) =>
      em.emit(n.args[1], input, (upto) => {
        const i = em.fresh("i");
        return `rt.jq.rangeBounds(${from}, ${upto});\nfor (let ${i} = ${from} as number; ${i} < (${upto} as number); ${i}++) {\n${k(i)}\n}`;
      }),
    ),
};

export const EMITTED_BUILTINS: ReadonlySet<string> = new Set(Object.keys(BUILTINS));

export function emitCall(em: Emitter, n: Call, input: string, k: K): string {
  const b = BUILTINS[`${n.name}/${n.args.length}`];
  if (!b) throw new Error(`jq emitter: ${n.name}/${n.args.length} is outside the subset (analysis should have said so)`);
  return b(em, n, input, k);
}

/** Exactly one output (or an error) whatever the input. */
export function isSingle(n: JqNode): boolean {
  switch (n.kind) {
    case "Identity":
    case "Number":
    case "Format":
    case "Var":
      return true;
    case "String":
      return n.parts.every((p) => "text" in p || isSingle(p.expr));
    case "Index":
      return !n.optional && isSingle(n.target) && isSingle(n.key);
    case "Neg":
      return isSingle(n.operand);
    case "Pipe":
    case "Binary":
      return isSingle(n.left) && isSingle(n.right);
    case "Array":
      return true;
    case "Object":
      return n.entries.every((e) => (e.key.kind !== "expr" || isSingle(e.key.expr)) && (e.value === null || isSingle(e.value)));
    case "If":
      return isSingle(n.cond) && isSingle(n.then) && (n.else === null || isSingle(n.else));
    case "Reduce":
      return isSingle(n.init);
    case "As":
      return isSingle(n.source) && isSingle(n.body);
    case "Call":
      if (COLLECTING_CALLS.has(`${n.name}/${n.args.length}`)) return true;
      return SINGLE_CALLS.has(`${n.name}/${n.args.length}`) && n.args.every(isSingle);
    default:
      return false;
  }
}

// Builtins whose one output gathers all outputs of their closure arguments.
const COLLECTING_CALLS = new Set([
  "map/1", "map_values/1", "with_entries/1", "sort_by/1", "group_by/1", "unique_by/1", "min_by/1", "max_by/1",
  "last/1", "any/1", "all/1", "any/2", "all/2",
]);

// Builtins with exactly one output when each of their arguments has one.
const SINGLE_CALLS = new Set([
  "true/0", "false/0", "null/0", "not/0", "type/0", "length/0", "keys/0", "keys_unsorted/0", "has/1", "contains/1",
  "startswith/1", "endswith/1", "ltrimstr/1", "rtrimstr/1", "split/1", "join/1", "test/1", "tostring/0", "tojson/0",
  "ascii_downcase/0", "ascii_upcase/0", "to_entries/0", "from_entries/0", "add/0", "sort/0", "reverse/0", "min/0",
  "max/0", "first/0", "last/0", "unique/0", "any/0", "all/0",
]);
