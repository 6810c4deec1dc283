import { defineDiagnostic as d } from "../diagnostic.js";

/** What openapi.json and the typed client can say about an endpoint (docs/openapi.md): SVC2090–SVC2099. */
export const openapiCodes = {
  untypedAnswer: d(
    "SVC2090",
    "warning",
    "An endpoint answers a value with no known type (an untyped `json`, or SQL the checker cannot type), so openapi.json and the client can only say \"any JSON value\" there.",
    (kind: string, name: string, where: string[]) =>
      `${kind} \`${name}\` answers ${where.map((w) => `\`${w}\``).join(", ")} with no known type: openapi.json and client.ts say "any JSON value" there`,
    (kind: string) =>
      kind === "query"
        ? "answer resource fields of a declared type: a computed column, or a `json` field, has no type svc can state"
        : "return a record type, a resource row or a value of a declared type instead of `json`, or make the action `private`",
  ),
};
