// The type of a `let` or loop variable, read from the analyzed action or fn: its IR binds
// each name with the type analysis gave the value. The n-th binding of a name in the body,
// in source order, is the n-th in the IR (analysis keeps statement order).

import type { IrStmt, ValueType } from "./analyzed.js";

/** Every type the body binds `name` to, in source order. */
export function boundTypes(body: readonly IrStmt[], name: string): ValueType[] {
  const out: ValueType[] = [];
  const walk = (stmts: readonly IrStmt[]) => {
    for (const s of stmts) {
      if (s.kind === "let" && s.name === name) out.push(s.value.type);
      if (s.kind === "if") {
        walk(s.then);
        walk(s.else);
      }
      if (s.kind === "for") {
        if (s.name === name) out.push(itemType(s.list.type));
        walk(s.body);
        if (s.collect?.into === name) out.push({ kind: "array", item: s.collect.item });
      }
    }
  };
  walk(body);
  return out;
}

function itemType(list: ValueType): ValueType {
  if (list.kind === "array") return list.item;
  if (list.kind === "rows") return { kind: "row", resource: list.resource, nullable: false };
  if (list.kind === "queryRows") return { kind: "queryRow", query: list.query, nullable: false };
  return { kind: "unknown" };
}
