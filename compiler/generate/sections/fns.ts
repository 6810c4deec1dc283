// fns (docs/language.md §2.3, Functions) as plain synchronous functions of their arguments: no
// executor, since a fn never reaches the database. One function per instance (a set of
// argument types the fn is called with), typed as the analyzer typed it.

import { type StatementStructures, StructureKind } from "../ts-morph.js";
import type { FnModel, Model } from "../../analyze/model/model.js";
import { IrEmitter } from "../emit-ir.js";
import type { Names } from "../names.js";
import { valueTs } from "../ts-types.js";

type Out = (string | StatementStructures)[];

export function fnSection(model: Model, f: FnModel, names: Names): Out {
  const args = names.pureArgsType(f.id);
  const emitter = new IrEmitter(names, model);
  const body = emitter.stmts(f.body);
  const last = f.body[f.body.length - 1];
  const endsWithReturn = last !== undefined && (last.kind === "return" || last.kind === "fail");
  return [
    `// ---- fn ${f.module}.${f.name} ----`,
    {
      kind: StructureKind.Interface,
      name: args,
      isExported: true,
      docs: [`Arguments of \`${f.module}.${f.name}\` as ${names.pureFn(f.id)} is called.`],
      properties: f.params.map((p) => ({ name: p.name, type: valueTs(p.type, names, model) })),
    },
    {
      kind: StructureKind.Function,
      name: names.pureFn(f.id),
      isExported: true,
      docs: f.doc ? [f.doc] : undefined,
      parameters: [{ name: emitter.readsArgs ? "args" : "_args", type: args }],
      returnType: valueTs(f.returns, names, model),
      statements: endsWithReturn ? body : `${body}\nreturn null;`,
    },
  ];
}
