// What the generated code calls for the language itself (docs/language.md §2.3): argument
// checks, values read from json, list and record checks, the built-in functions, and the
// checks a record operation makes before it writes. runtime/index.ts exports all of it.
export type { ArgCheck } from "./args.js";
export * as arg from "./args.js";
export * as expect from "./expect.js";
export * as shape from "./shape.js";
export * as lists from "./lists.js";
export { trim, lower, upper, len, concat, member, slug, replace, startsWith, endsWith, contains, substr } from "./builtins.js";
export { notNull, oneOf, oneOfOrNull, toBool, fromJson, toJson } from "./record.js";
