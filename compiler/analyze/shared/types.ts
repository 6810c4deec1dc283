import type { ScalarType, ValueType } from "../model/model.js";

export const SCALAR_TYPES: readonly ScalarType[] = ["id", "text", "int", "float", "bool", "timestamp", "json", "enum", "file"];

export function scalar(type: ScalarType, nullable = false, enumValues: string[] = []): ValueType {
  return { kind: "scalar", type, enumValues, nullable };
}

export const NULL_TYPE: ValueType = { kind: "null" };
export const UNKNOWN: ValueType = { kind: "unknown" };

export function isNullable(t: ValueType): boolean {
  switch (t.kind) {
    case "scalar":
    case "row":
    case "queryRow":
    case "caller":
      return t.nullable;
    case "null":
    case "unknown":
      return true;
    case "object":
    case "array":
      return t.nullable === true;
    default:
      return false;
  }
}

export function withNullable(t: ValueType, nullable: boolean): ValueType {
  switch (t.kind) {
    case "scalar":
    case "row":
    case "queryRow":
    case "caller":
      return { ...t, nullable };
    case "object":
    case "array": {
      // Kept absent rather than false, so the types of literals stay as they were.
      const { nullable: _, ...rest } = t;
      return nullable ? { ...rest, nullable } : rest;
    }
    default:
      return t;
  }
}

/** Text-like scalars: values that are strings in JSON. */
export function isStringy(t: ValueType): boolean {
  return t.kind === "scalar" && (t.type === "text" || t.type === "id" || t.type === "enum" || t.type === "timestamp");
}

export function isNumeric(t: ValueType): boolean {
  return t.kind === "scalar" && (t.type === "int" || t.type === "float");
}

/** How a type reads in a message. */
export function describe(t: ValueType): string {
  switch (t.kind) {
    case "scalar": {
      const base = t.type === "enum" ? `enum(${t.enumValues.join(", ")})` : t.type;
      return t.nullable ? `${base}?` : base;
    }
    case "row":
      return t.nullable ? `${t.resource}?` : t.resource;
    case "rows":
      return `[${t.resource}]`;
    case "queryRow":
      return t.nullable ? `row of ${t.query}?` : `row of ${t.query}`;
    case "queryRows":
      return `rows of ${t.query}`;
    case "object":
      return (t.type ?? "object") + (t.nullable ? "?" : "");
    case "array":
      return (t.item.kind === "unknown" ? "list" : `list<${describe(t.item)}>`) + (t.nullable ? "?" : "");
    case "caller":
      return t.nullable ? "auth?" : "auth";
    case "null":
      return "null";
    case "unknown":
      return "a value of unknown type";
  }
}

/**
 * Can a value of type `from` be stored where `to` is declared? Enums accept any string
 * (checked at run time against the list, or at build time for a literal); an int fits a
 * float; `unknown` fits anything (checked at run time where it matters).
 */
export function assignable(from: ValueType, to: ValueType): boolean {
  if (from.kind === "unknown" || to.kind === "unknown") return true;
  if (from.kind === "null") return isNullable(to);
  if (to.kind !== "scalar" || from.kind !== "scalar") {
    if (to.kind === "scalar" && to.type === "json") return true;
    if (from.kind === "array" && to.kind === "array") return (!from.nullable || to.nullable === true) && assignable(from.item, to.item);
    if (from.kind === "object" && to.kind === "object" && to.type !== undefined) return from.type === to.type;
    return from.kind === to.kind;
  }
  if (to.type === "json") return true;
  if (isStringy(to) && isStringy(from)) return true;
  if (to.type === "float" && from.type === "int") return true;
  return to.type === from.type;
}
