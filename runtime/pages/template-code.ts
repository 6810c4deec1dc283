// A mustache template turned into the source of one JavaScript function (templates.ts makes
// the function at start, once). Each tag becomes code that names what it looks up: a property
// read with its name written in place has an inline cache of its own, which stays on one shape
// (a list's rows all have one), where one closure serving every name saw them all and went
// megamorphic. Sections are loops over local variables (c0 the view, c1 the innermost
// section's value, …), and the output is one string grown with `+=`.
//
// The rules are mustache.js's, as templates.ts describes them; the source only decides at
// start what the interpreter decided per tag per request. Names and text are written into the
// source with JSON.stringify, so a template's content is always data, never code.

import { utf8Bytes } from "./utf8.js";
import { SvcError } from "../core/errors.js";

type Token = [string, string, number, number, Token[]?, number?];

/**
 * `body` is that of `function render(c0, w)`: `c0` the view, `w` the writer; it returns the
 * rendered string. `prelude` declares its constants (dotted names' parts); both run inside
 * `function (rt)`, `rt` the helpers templates.ts passes (isObject, walk, MISS).
 */
export interface TemplateCode {
  prelude: string;
  body: string;
}

export function templateCode(tokens: readonly Token[]): TemplateCode {
  const g = new CodeWriter();
  const body = g.block(tokens, 0);
  return {
    prelude: g.constants.join("\n"),
    body: `let o = "";\nlet v;\n${body}return o;\n`,
  };
}

class CodeWriter {
  readonly constants: string[] = [];
  private next = 0;

  block(tokens: readonly Token[], depth: number): string {
    let out = "";
    for (const token of tokens) out += this.token(token, depth);
    return out;
  }

  private token(token: Token, depth: number): string {
    const [kind, value] = token;
    switch (kind) {
      case "text": {
        // A literal in the source: V8 makes it one flat string, whatever rope mustache.js built.
        const bytes = utf8Bytes(value);
        const piece = bytes === value ? lit(value) : `(w.bytes ? ${lit(bytes)} : ${lit(value)})`;
        return `o += ${piece};\n`;
      }
      case "name":
        return `v = ${this.lookup(value, depth)};\nif (v !== undefined && v !== null) o += w.escape(v);\n`;
      case "&":
        return `v = ${this.lookup(value, depth)};\nif (v !== undefined && v !== null) o += w.raw(v);\n`;
      case "#":
        return this.section(value, token[4] ?? [], depth);
      case "^": {
        const s = `s${this.next++}`;
        return (
          `const ${s} = ${this.lookup(value, depth)};\n` +
          `if (!${s} || (Array.isArray(${s}) && ${s}.length === 0)) {\n${this.block(token[4] ?? [], depth)}}\n`
        );
      }
      case ">":
        throw new SvcError("SVC_ERR_TEMPLATE", `partial {{> ${value}}} in a page template: partials are not available`);
      default:
        // Comments ({{! }}) and delimiter changes ({{= =}}) write nothing.
        return "";
    }
  }

  /**
   * A section repeats over an array, enters an object, a string or a number, and shows once
   * for any other truthy value; that last case enters the current context again (a lookup
   * finds the same), so one loop body serves all three.
   */
  private section(name: string, tokens: readonly Token[], depth: number): string {
    const n = this.next++;
    const [s, list, i, count] = [`s${n}`, `a${n}`, `i${n}`, `n${n}`];
    const inner = `c${depth + 1}`;
    const enters = `typeof ${s} === "object" || typeof ${s} === "string" || typeof ${s} === "number"`;
    return (
      `const ${s} = ${this.lookup(name, depth)};\n` +
      `if (${s}) {\n` +
      `const ${list} = Array.isArray(${s});\n` +
      `for (let ${i} = 0, ${count} = ${list} ? ${s}.length : 1; ${i} < ${count}; ${i}++) {\n` +
      `const ${inner} = ${list} ? ${s}[${i}] : ${enters} ? ${s} : c${depth};\n` +
      this.block(tokens, depth + 1) +
      `}\n}\n`
    );
  }

  /** An expression for the value of `name` seen from context `depth`, undefined when nothing has it. */
  private lookup(name: string, depth: number): string {
    if (name === ".") return `c${depth}`;
    if (name.indexOf(".") <= 0) {
      // A plain name is found only on an object that has it (a string's `length` is not).
      const key = lit(name);
      let expr = "undefined";
      for (let k = 0; k <= depth; k++) expr = `rt.isObject(c${k}) && ${key} in c${k} ? c${k}[${key}] : ${expr}`;
      return `(${expr})`;
    }
    // A dotted name: the first context in which the whole path ends on a property.
    const names = `d${this.constants.length}`;
    this.constants.push(`const ${names} = ${JSON.stringify(name.split("."))};`);
    let expr = "undefined";
    for (let k = 0; k <= depth; k++) expr = `(v = rt.walk(c${k}, ${names})) !== rt.MISS ? v : ${expr}`;
    return `(${expr})`;
  }
}

function lit(text: string): string {
  return JSON.stringify(text);
}
