// JSON Schema (as compiler/generate/openapi/schema.ts makes it) → a TypeScript type. The
// client is typed from the same schemas openapi.json prints, so the two cannot differ.

import { refName, type Schema } from "../openapi/schema.js";

export function schemaTs(s: Schema): string {
  const name = refName(s);
  if (name !== null) return name;
  if ("const" in s) return JSON.stringify(s.const);
  if (Array.isArray(s.anyOf)) return union((s.anyOf as Schema[]).map(schemaTs));
  if (Array.isArray(s.enum)) return union((s.enum as unknown[]).map((v) => JSON.stringify(v)));
  if (Array.isArray(s.type)) return union((s.type as string[]).map((t) => schemaTs({ ...s, type: t })));
  switch (s.type) {
    case "string":
      // A file's bytes (docs/language.md §2.7): a Blob (or File) sent in a multipart body, or answered.
      return typeof s.contentMediaType === "string" ? "Blob" : "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `${wrap(schemaTs((s.items as Schema | undefined) ?? {}))}[]`;
    case "object": {
      const properties = (s.properties as Record<string, Schema> | undefined) ?? {};
      const keys = Object.keys(properties);
      if (keys.length === 0) return s.additionalProperties === false ? "Record<string, never>" : "Record<string, unknown>";
      return `{ ${objectMembers(s).join(" ")} }`;
    }
    default:
      return "unknown";
  }
}

/** `name?: T;` of each property of an object schema, its description as a doc comment before it. */
export function objectMembers(s: Schema): string[] {
  const properties = (s.properties as Record<string, Schema> | undefined) ?? {};
  const required = new Set((s.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([key, p]) => {
    const doc = typeof p.description === "string" ? `/** ${p.description.replace(/\*\//g, "*\\/")} */\n` : "";
    return `${doc}${propertyKey(key)}${required.has(key) ? "" : "?"}: ${schemaTs(p)};`;
  });
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes("unknown")) return "unknown";
  return unique.map(wrap).join(" | ");
}

function wrap(ts: string): string {
  return /[|&]/.test(ts) && !ts.startsWith("{") ? `(${ts})` : ts;
}
