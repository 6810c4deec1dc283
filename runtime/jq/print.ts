// Printing values as jq 1.7.1 does: `tojson`, `tostring`, formats, and numbers.

import { copyObject, keysOf, typeOf } from "./values.js";

/** Shortest round-trip digits and decimal point position of a finite, non-zero number. */
function digitsOf(n: number): { digits: string; decpt: number } {
  const [mant, exp] = Math.abs(n).toExponential().split("e");
  return { digits: mant.replace(".", ""), decpt: Number(exp) + 1 };
}

/**
 * jq 1.7.1 prints a number that came in as JSON text (or a canonical literal in the
 * program) as that text via decNumber (`1E+21`), and a computed one with its own dtoa
 * formatting (`1e+21`, `1e-07`). The compiler decides statically which applies.
 */
export function numText(n: number, computed: boolean): string {
  if (Object.is(n, -0)) return "-0";
  if (!computed) return String(n).replace("e", "E");
  if (Number.isNaN(n)) return "null";
  if (!Number.isFinite(n)) return n > 0 ? "1.7976931348623157e+308" : "-1.7976931348623157e+308";
  if (n === 0) return "0";
  const sign = n < 0 ? "-" : "";
  const { digits, decpt } = digitsOf(n);
  if (decpt <= -4 || decpt > digits.length + 15) {
    const e = decpt - 1;
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mant}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return sign + digits + "0".repeat(decpt - digits.length);
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

export function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c >= 0x20 && c !== 0x7f) out += s[i];
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x08) out += "\\b";
    else if (c === 0x0c) out += "\\f";
    else out += `\\u${c.toString(16).padStart(4, "0")}`;
  }
  return out + '"';
}

/** `tojson`: jq's compact JSON text. */
export function dump(v: unknown, computed: boolean): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "number":
      return numText(v, computed);
    case "string":
      return quote(v);
  }
  if (Array.isArray(v)) return `[${v.map((x) => dump(x, computed)).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${keysOf(o)
    .map((k) => `${quote(k)}:${dump(o[k], computed)}`)
    .join(",")}}`;
}

export function tostring(v: unknown, computed: boolean): string {
  return typeof v === "string" ? v : dump(v, computed);
}

/** The value as jq quotes it in error messages: its JSON, cut at 11 characters. */
export function errDump(v: unknown): string {
  const s = dumpUpTo(v, 14);
  return s.length > 14 ? `${s.slice(0, 11)}...` : s;
}

/**
 * `dump`, stopped once the text is longer than `limit`: an error message about a value
 * nested 10,000 deep needs its first characters, not a walk of all of it.
 */
function dumpUpTo(v: unknown, limit: number): string {
  let out = "";
  const put = (s: string): boolean => {
    out += s;
    return out.length > limit;
  };
  const walk = (x: unknown): boolean => {
    if (x === null || typeof x !== "object") return put(dump(x, false));
    if (Array.isArray(x)) {
      if (put("[")) return true;
      for (let i = 0; i < x.length; i++) if ((i > 0 && put(",")) || walk(x[i])) return true;
      return put("]");
    }
    const o = x as Record<string, unknown>;
    if (put("{")) return true;
    const keys = keysOf(o);
    for (let i = 0; i < keys.length; i++) if ((i > 0 && put(",")) || put(`${quote(keys[i])}:`) || walk(o[keys[i]])) return true;
    return put("}");
  };
  walk(v);
  return out;
}

export function described(v: unknown): string {
  return `${typeOf(v)} (${errDump(v)})`;
}

// The entities jq-web's jq 1.7.1 writes (it spells the apostrophe `&apos;`).
const HTML: Record<string, string> = { "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" };

/** `@text`, `@json`, `@html`, `@uri` applied to one value. */
export function format(name: "text" | "json" | "html" | "uri", v: unknown, computed: boolean): string {
  if (name === "json") return dump(v, computed);
  const s = tostring(v, computed);
  if (name === "text") return s;
  if (name === "html") return s.replace(/[<>&'"]/g, (c) => HTML[c]);
  let out = "";
  for (const b of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** jq prints non-finite numbers as the largest double, and NaN as null. */
export function finite(v: unknown): unknown {
  if (typeof v === "number") return Number.isNaN(v) ? null : Number.isFinite(v) ? v : v > 0 ? Number.MAX_VALUE : -Number.MAX_VALUE;
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x = finite(v[i]);
      if (x !== v[i] && !out) out = v.slice(0, i);
      if (out) out.push(x);
    }
    return out ?? v;
  }
  const o = v as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const k of keysOf(o)) {
    const x = finite(o[k]);
    if (x !== o[k] && !out) out = copyObject(o);
    if (out) out[k] = x;
  }
  return out ?? o;
}
