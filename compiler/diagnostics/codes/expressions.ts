import { defineDiagnostic as d } from "../diagnostic.js";

/**
 * Expressions a real app needs (docs/language.md §2.3): lists built in code, values made in
 * code, absent arguments: SVC2120–SVC2139.
 */
export const expressionCodes = {
  yieldOutside: d(
    "SVC2120",
    "error",
    "`yield` stands outside a collecting `for` (`let items = for x in list { … }`).",
    () => "`yield` is only allowed inside `let name = for … { … }`",
    () => "build the list with `let items = for x in list { … yield value }`, or drop the `yield`",
  ),
  collectWithoutYield: d(
    "SVC2121",
    "error",
    "A collecting `for` (`let items = for …`) has no `yield`: its list would always be empty.",
    (name: string) => `\`let ${name} = for …\` never yields a value`,
    () => "give each item with `yield value` inside the loop; a loop run for its effect is a plain `for` statement",
  ),
  collectBound: d(
    "SVC2122",
    "error",
    "The `max` of a collecting `for` must be a whole number from 1 to 10000.",
    (max: number) => `\`max ${max}\` is out of range`,
    () => "a list built in code holds at most 10000 items, 100 when `max` is not written",
  ),
  hasArgument: d(
    "SVC2123",
    "error",
    "`has(x)` asks whether the call gave an argument or record member declared `T??`; `x` is something else.",
    (found: string) => `\`has\` takes an argument or member declared \`T??\`, found ${found}`,
    () => "declare it `name: text??` (absent, null or a value); a `T?` argument reads absent as null",
  ),
  absentNotHere: d(
    "SVC2124",
    "error",
    "`T??` (a value that may be absent) is declared where absence cannot be told from null, or with a default.",
    (where: string) => `\`??\` is not allowed ${where}`,
    () => "`T??` is for parameters of actions and members of record types, without a default: absent is its own state",
  ),
  randomBounds: d(
    "SVC2125",
    "error",
    "`random_int(lo, hi)` is given constant bounds with `lo` above `hi`: every call would fail.",
    (lo: number, hi: number) => `\`random_int(${lo}, ${hi})\` has its low bound above its high one`,
    () => "both bounds are included: `random_int(1, 10000)` gives 1 to 10000",
  ),
  absentRewritten: d(
    "SVC2126",
    "warning",
    "A `T??` argument is written to a field through an expression, which reads absent as null: a call that leaves it out would clear the field.",
    (name: string, field: string) => `\`${name}\` may be absent, but \`${field}\` is given an expression of it, which writes null when it is absent`,
    (name: string, field: string) => `write \`${field}: ${name}\` to leave the field as it is when \`${name}\` is absent, or test \`has(${name})\` first`,
  ),
} as const;
