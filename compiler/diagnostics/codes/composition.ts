import { defineDiagnostic as d } from "../diagnostic.js";

/** Private code, calls between actions and pure functions (docs/language.md §2.3: Private queries and actions, Functions): SVC2070–SVC2079. */
export const compositionCodes = {
  routeToPrivate: d(
    "SVC2070",
    "error",
    "A module `route` targets a private query or action, which has no endpoint.",
    (kind: string, name: string) => `${kind} \`${name}\` is private: it has no endpoint, so no route can serve it`,
    (kind: string) =>
      `call it from an action or a route file (invoke/query/fetch), or remove \`private\` to make the ${kind} an endpoint`,
  ),
  sensitivePublic: d(
    "SVC2071",
    "warning",
    "An endpoint that is public by default answers with a field whose name looks secret or personal.",
    (kind: string, name: string, url: string, fields: string[]) =>
      `${kind} \`${name}\` is an endpoint, ${url}, and answers with ${fields.map((f) => `\`${f}\``).join(", ")}`,
    (kind: string) =>
      `write \`private ${kind}\` so only actions and route files reach it, answer only the fields meant for callers, or write \`public ${kind}\` to say the endpoint is meant`,
  ),
  callCycle: d(
    "SVC2072",
    "error",
    "An action or fn calls itself, directly or through others.",
    (kind: string, path: string[]) => `${kind} \`${path[0]}\` calls itself: ${path.map((p) => `\`${p}\``).join(" → ")}`,
    () => "calls are resolved at build time, so there is no recursion; write the repeated step once and call it from each place",
  ),
  impureFn: d(
    "SVC2073",
    "error",
    "A fn reads or writes the database; fns compute values from their arguments only.",
    (fn: string, what: string) => `fn \`${fn}\` cannot ${what}: a fn computes a value from its arguments only`,
    () => "do it in the action and pass the result to the fn as an argument",
  ),
  fnParamDefault: d(
    "SVC2074",
    "error",
    "A fn parameter has a default value; every argument of a fn is given by its call.",
    (name: string) => `fn parameter \`${name}\` cannot have a default`,
    () => "pass the value at each call, or write a second fn that fills it in",
  ),
  requiresNotChecked: d(
    "SVC2075",
    "warning",
    "An action calls an action whose `requires` the caller's does not imply; only the caller's is checked.",
    (callee: string, clause: string, caller: string) =>
      `\`${callee}\` has \`${clause}\`, which \`${caller}\` does not: a call from an action does not check it again`,
    (_callee: string, clause: string) => `give the caller \`${clause}\` too, if only such callers may run it`,
  ),
} as const;
