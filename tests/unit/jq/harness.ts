// Runs compiled page.jq programs the way the generated server will (TypeScript source with
// `rt.jq` in scope), jq-web beside them, and makes seeded random inputs to feed both.

import { createRequire } from "node:module";
import ts from "typescript";
import { emitJq } from "../../../compiler/generate/jq/program.js";
import { compileJq, type JqCompileResult } from "../../../compiler/jq/index.js";
import * as jq from "../../../runtime/jq/index.js";
import { jqMessage, runFilter } from "../../../runtime/jq/web.js";

export type JqFunction = (input: unknown, params: unknown, query: unknown) => unknown[];

/** The emitted source, type-stripped and evaluated with `rt.jq` bound. */
export function load(source: string): JqFunction {
  const js = ts.transpileModule(`const program = ${source};`, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
  return new Function("rt", `${js}\nreturn program;`)({ jq }) as JqFunction;
}

export function compiled(program: string): JqFunction {
  const r: JqCompileResult = compileJq("app/page.jq", program);
  if (r.kind !== "compiled") throw new Error(`expected ${program} to compile, got ${JSON.stringify(r)}`);
  return load(emitJq(r.plan));
}

export type Outcome = { ok: true; values: unknown[] } | { ok: false; message: string };

export function outcome(f: () => unknown[]): Outcome {
  try {
    return { ok: true, values: f() };
  } catch (e) {
    if (e instanceof jq.JqError) return { ok: false, message: e.message };
    throw e;
  }
}

/** JSON-like text that tells -0 from 0 and keeps key order: "deep equal, same order". */
export function canon(v: unknown): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${JSON.stringify(k)}:${canon(x)}`)
    .join(",")}}`;
}

interface RawJq {
  raw(json: string, filter: string, flags: string[]): string | undefined;
}

/** jq-web itself, for telling compile errors (exit 3) from run-time errors (exit 5). */
export async function rawJq(): Promise<RawJq> {
  const require = createRequire(import.meta.url);
  return (await (require("jq-web") as Promise<RawJq>)) as RawJq;
}

/**
 * A program run on jq-web in this thread, wrapped as the server's fallback wraps it:
 * synchronous, for comparing thousands of runs (the server's runs go through a thread).
 */
export function runOnJqWeb(raw: RawJq, program: string, input: unknown, vars: { params: unknown; query: unknown }): unknown[] {
  const doc = JSON.stringify({ i: input ?? null, p: vars.params ?? null, q: vars.query ?? null });
  let text: string | undefined;
  try {
    text = raw.raw(doc, runFilter(program), ["-c"]);
  } catch (e) {
    throw new jq.JqError(jqMessage(String((e as { stderr?: string }).stderr ?? (e as Error).message)));
  }
  return (text ?? "")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown);
}

// ------------------------------------------------------------ seeded inputs

/** mulberry32: small, fast, and the same sequence on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ["a", "b", "c", "id", "title", "status", "tags", "done", "priority", "n", "count", "key", "value", "name", "1", "0", "x y", "records", "result"];
const STRINGS = ["", "a", "b", "ab", "abc", "done", "todo", "doing", "A", "Zé", "é", "😀x", "<a&b>", "a,b,,c", "1", "x y", "\u0001\u007f", "ba", "title", "it's \"q\""];
const NUMBERS = [0, 1, 2, 3, -1, 7, 42, 100, 1.5, -0.5, 0.1, 2.5, 1e-7, 0.00001, 1e17, 1e21, 123456789012345680000, -3.75, 9007199254740993, 1e300];

export class Gen {
  private readonly r: () => number;

  constructor(seed: number) {
    this.r = rng(seed);
  }

  int(n: number): number {
    return Math.floor(this.r() * n);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }

  scalar(): unknown {
    switch (this.int(6)) {
      case 0:
        return null;
      case 1:
        return this.r() < 0.5;
      case 2:
      case 3:
        return this.pick(NUMBERS);
      default:
        return this.pick(STRINGS);
    }
  }

  value(depth: number): unknown {
    const roll = this.int(10);
    if (depth <= 0 || roll < 5) return this.scalar();
    if (roll < 7) return Array.from({ length: this.int(4) }, () => this.value(depth - 1));
    if (roll < 8) return this.task();
    const o: Record<string, unknown> = {};
    for (let i = this.int(4); i > 0; i--) o[this.pick(KEYS)] = this.value(depth - 1);
    return o;
  }

  task(): Record<string, unknown> {
    const t: Record<string, unknown> = {
      id: this.int(50) + 1,
      title: this.pick(["Write docs", "fix bug", "a", "Ship it", "é", ""]),
      status: this.pick(["todo", "doing", "done"]),
      done: this.r() < 0.4,
      priority: this.r() < 0.9 ? this.int(5) : null,
      tags: Array.from({ length: this.int(3) }, () => this.pick(["x", "y", "urgent", "a"])),
    };
    if (this.r() < 0.1) t.title = this.value(1);
    return t;
  }

  /** Mostly route-data-like objects, sometimes anything at all. */
  input(): unknown {
    if (this.r() < 0.2) return this.value(3);
    const o: Record<string, unknown> = {
      records: this.r() < 0.9 ? Array.from({ length: this.int(6) }, () => this.task()) : this.value(2),
      result: this.r() < 0.8 ? this.task() : this.value(2),
    };
    for (let i = this.int(4); i > 0; i--) o[this.pick(KEYS)] = this.value(2);
    return o;
  }
}
