import { defineDiagnostic as d } from "../diagnostic.js";

const didYouMean = (near: string | null) => (near ? `did you mean \`${near}\`?` : undefined);

/** Primary keys of every kind (docs/language.md §2.1, Keys): SVC2101–SVC2119. */
export const keyCodes = {
  twoKeys: d(
    "SVC2101",
    "error",
    "A resource has one primary key: one `id` field, or one `key (…)` clause.",
    (resource: string, what: string) => `resource \`${resource}\` declares a second key: ${what}`,
    () => "keep one: an `id` field (made by the server) or `key (…)` (fields the caller gives)",
  ),
  keyUnknownField: d(
    "SVC2102",
    "error",
    "A `key (…)` names only fields of its resource.",
    (name: string, resource: string, _near: string | null) => `\`key\` names \`${name}\`, which is not a field of \`${resource}\``,
    (_name: string, _resource: string, near: string | null) => didYouMean(near),
  ),
  keyNullable: d(
    "SVC2103",
    "error",
    "A key field is never null.",
    (field: string) => `key field \`${field}\` is nullable`,
    () => "drop the `?`: every row has its key",
  ),
  keyType: d(
    "SVC2104",
    "error",
    "A key field is text, int, an enum or an id.",
    (field: string, type: string) => `key field \`${field}\` is of type ${type}, which cannot be a key`,
    () => "key a text, int or enum field; a float, bool, timestamp or json value does not identify a row well",
  ),
  idKind: d(
    "SVC2105",
    "error",
    "An `id` field's kind is one of `ulid` (the default), `uuid`, `uuid7` or `int`.",
    (written: string) => `\`${written}\` is not a kind of id`,
    () => "write `id` (a ULID), `id(uuid)`, `id(uuid7)` or `id(int)`",
  ),
  idKindOutsideResource: d(
    "SVC2106",
    "error",
    "A kind of id is written on a resource's `id` field only; an argument that carries a key has the key's type.",
    (written: string, type: string) => `\`${written}\` is a kind of key, not the type of an argument`,
    (_written: string, type: string) => `declare the argument as \`${type}\`, the type of the key's values`,
  ),
  keyFieldTwice: d(
    "SVC2107",
    "error",
    "A `key (…)` names each field once.",
    (field: string) => `\`key\` names \`${field}\` twice`,
  ),
  keyArgs: d(
    "SVC2108",
    "error",
    "`get`, `update` and `delete` give the key: one value for a key of one field, each key field by name for a key of several.",
    (op: string, resource: string, problem: string, _fields: string[]) => `\`${op} ${resource}(…)\`: ${problem}`,
    (_op: string, _resource: string, _problem: string, fields: string[]) =>
      fields.length === 1
        ? `give the key's value, e.g. \`(${fields[0]})\``
        : `name every key field, e.g. \`(${fields.map((f) => `${f}: …`).join(", ")})\``,
  ),
};
