// Typed readers for the values smol-toml returns. Each reader checks one value, reports
// what is wrong with it at its place in svc.toml, and returns the value or undefined.
// Tables are described once as a record of readers; the keys of that record are the
// known keys, so the list of keys and the code that reads them cannot drift apart.

import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { configCodes } from "../../diagnostics/codes/config.js";
import { closest } from "../../diagnostics/did-you-mean.js";
import type { TomlIndex, TomlPath } from "./locate.js";

export interface ReadContext {
  file: string;
  index: TomlIndex;
  diagnostics: Diagnostic[];
}

export type Reader<T> = (ctx: ReadContext, value: unknown, path: TomlPath) => T | undefined;

// `any` so that a record of readers of different types is assignable; Read<F> recovers each type.
export type Fields = Record<string, Reader<any>>;

/** What a table of `fields` reads to: each key present and valid, with its reader's type. */
export type Read<F extends Fields> = { [K in keyof F]?: F[K] extends Reader<infer T> ? T : never };

/** What a string must look like; `check` returns null when it does. */
export type StringCheck = (value: string) => { expected: string; hint?: string } | null;

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** `server.listen`, `credentials."my key"`, `modules.dirs[1]`: a path as a user would write it. */
export function formatPath(path: TomlPath): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += (out ? "." : "") + (BARE_KEY.test(part) ? part : JSON.stringify(part));
  }
  return out;
}

export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** "a string", "an integer", …: how a found value is named in messages. */
export function describe(value: unknown): string {
  if (typeof value === "string") return "a string";
  if (typeof value === "bigint") return "an integer";
  if (typeof value === "number") return "a float";
  if (typeof value === "boolean") return "a boolean";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a date-time";
  return "a table";
}

function wrongType(ctx: ReadContext, path: TomlPath, expected: string, value: unknown, hint?: string): undefined {
  ctx.diagnostics.push(
    configCodes.wrongType.at(ctx.file, ctx.index.best(path), formatPath(path), expected, describe(value), hint),
  );
  return undefined;
}

export function text(check?: StringCheck): Reader<string> {
  return (ctx, value, path) => {
    if (typeof value !== "string") return wrongType(ctx, path, "a string", value, quoteHint(value));
    const problem = value === "" ? { expected: "a non-empty string" } : check?.(value);
    if (problem) {
      ctx.diagnostics.push(
        configCodes.badValue.at(
          ctx.file,
          ctx.index.best(path),
          formatPath(path),
          problem.expected,
          value,
          problem.hint,
        ),
      );
      return undefined;
    }
    return value;
  };
}

function quoteHint(value: unknown): string | undefined {
  return typeof value === "bigint" || typeof value === "number" || typeof value === "boolean"
    ? `put it in quotes: "${String(value)}"`
    : undefined;
}

/** Integers only; smol-toml is asked for bigints so that `2.0` (a float) is told apart from `2`. */
export function boolean(): Reader<boolean> {
  return (ctx, value, path) => (typeof value === "boolean" ? value : wrongType(ctx, path, "a boolean (true or false)", value));
}

export function integer(min: number, max: number): Reader<number> {
  return (ctx, value, path) => {
    if (typeof value !== "bigint") {
      const unquoted =
        typeof value === "string" && /^-?\d+$/.test(value.trim())
          ? `write it without quotes: ${value.trim()}`
          : undefined;
      return wrongType(ctx, path, "an integer", value, unquoted);
    }
    if (value < BigInt(min) || value > BigInt(max)) {
      ctx.diagnostics.push(
        configCodes.outOfRange.at(ctx.file, ctx.index.best(path), formatPath(path), String(value), min, max),
      );
      return undefined;
    }
    return Number(value);
  };
}

export function oneOf<V extends string>(values: readonly V[]): Reader<V> {
  return (ctx, value, path) => {
    if (typeof value !== "string") return wrongType(ctx, path, `a string (one of ${values.join(", ")})`, value);
    if ((values as readonly string[]).includes(value)) return value as V;
    ctx.diagnostics.push(
      configCodes.notOneOf.at(ctx.file, ctx.index.best(path), formatPath(path), value, values, closest(value, values)),
    );
    return undefined;
  };
}

/** An array of strings; an invalid element is reported and the array still read without it. */
export function strings(check?: StringCheck): Reader<string[]> {
  const element = text(check);
  return (ctx, value, path) => {
    if (!Array.isArray(value)) return wrongType(ctx, path, "an array of strings", value);
    const out: string[] = [];
    value.forEach((item, i) => {
      const read = element(ctx, item, [...path, i]);
      if (read !== undefined) out.push(read);
    });
    return out;
  };
}

/** A table with a fixed set of keys; `expected` names it in type errors. */
export function table<F extends Fields>(fields: F, expected = "a table"): Reader<Read<F>> {
  const known = Object.keys(fields);
  return (ctx, value, path) => {
    if (!isTable(value)) return wrongType(ctx, path, expected, value);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const keyPath = [...path, key];
      if (!Object.hasOwn(fields, key)) {
        const at = ctx.index.key(keyPath) ?? ctx.index.best(keyPath);
        ctx.diagnostics.push(configCodes.unknownKey.at(ctx.file, at, formatPath(keyPath), closest(key, known), known));
        continue;
      }
      const read = fields[key](ctx, value[key], keyPath);
      if (read !== undefined) out[key] = read;
    }
    return out as Read<F>;
  };
}

/**
 * A table whose keys are names the user chooses (e.g. [credentials]); `name` checks each
 * key and reports what is wrong with it, returning false to skip the entry.
 */
export function mapOf<T>(
  entry: Reader<T>,
  name: (ctx: ReadContext, key: string, path: TomlPath) => boolean,
): Reader<Record<string, T>> {
  return (ctx, value, path) => {
    if (!isTable(value)) return wrongType(ctx, path, "a table", value);
    const entries: [string, T][] = [];
    for (const key of Object.keys(value)) {
      const keyPath = [...path, key];
      if (!name(ctx, key, keyPath)) continue;
      const read = entry(ctx, value[key], keyPath);
      if (read !== undefined) entries.push([key, read]);
    }
    // fromEntries defines own properties, so a key such as `__proto__` cannot reach the prototype.
    return Object.fromEntries(entries);
  };
}
