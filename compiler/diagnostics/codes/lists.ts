import { defineDiagnostic as d } from "../diagnostic.js";

/** Lists and record types (docs/language.md §2.3 Lists, §2.5 Record types): SVC2050–SVC2059. */
export const listCodes = {
  listItemType: d(
    "SVC2050",
    "error",
    "`list` needs its item type in angle brackets, and only `list` takes one.",
    (problem: string) => problem,
    () => "write `list<text>`, `list<int> max 20`, or `list<NewUser>`",
  ),
  notASingleValue: d(
    "SVC2051",
    "error",
    "A list or a record type is used where only a single value fits: a resource field, or a query parameter of record type.",
    (what: string, type: string) => `${what} cannot be of type \`${type}\``,
    (what: string) =>
      what.startsWith("field")
        ? "a field holds one value: store a list or a record in a `json` field"
        : "a query binds single values, and lists of id, text, enum, int, float or bool (`x IN @tags`)",
  ),
  listBound: d(
    "SVC2052",
    "error",
    "A list's `max` must be a whole number from 1 to 10000.",
    (max: number) => `\`max ${max}\` is out of range`,
    () => "a list argument is bounded: at most 10000 items, 100 when `max` is not written",
  ),
  forOverNonList: d(
    "SVC2053",
    "error",
    "`for … in` needs a list: a list argument, a list literal, the rows of a query, or a json value holding a list.",
    (found: string) => `\`for\` needs a list, found ${found}`,
  ),
  typeName: d(
    "SVC2054",
    "error",
    "A record type takes the name of a built-in type.",
    (name: string) => `\`${name}\` is a built-in type and cannot name a record type`,
    () => "record types are usually capitalized: `type NewUser { … }`",
  ),
  recursiveType: d(
    "SVC2055",
    "error",
    "A record type contains itself, directly or through other types.",
    (name: string, path: string[]) => `type \`${name}\` contains itself: ${path.join(" → ")}`,
    () => "take the inner value as `json`, or pass its id instead",
  ),
} as const;
