import { type StatementStructures, StructureKind } from "../ts-morph.js";
import type { ActionModel, Model, ParamModel, QueryModel } from "../../analyze/model.js";
import { IrEmitter } from "../emit-ir.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { fieldTs, queryResultTs, queryRowTs, valueTs } from "../ts-types.js";
import { decoderFor, statementSpec } from "./shared.js";
import { routeFileTextParams } from "./route-files.js";

type Out = (string | StatementStructures)[];

function argsInterface(name: string, params: ParamModel[], doc: string): StatementStructures {
  return {
    kind: StructureKind.Interface,
    name,
    isExported: true,
    docs: [doc],
    properties: params.map((p) => ({ name: p.name, type: fieldTs(p) })),
  };
}

/** Per query: its argument and row types, its statement, and one plain function. */
export function querySection(model: Model, q: QueryModel, names: Names): Out {
  const out: Out = [`// ---- query ${q.module}.${q.name} ----`];
  const args = names.argsType(q.module, q.name);
  out.push(argsInterface(args, q.params, `Arguments of \`${q.module}.${q.name}\`.`));
  const row = queryRowTs(q, names);
  if (!q.rowResource) {
    out.push({
      kind: StructureKind.Interface,
      name: row,
      isExported: true,
      docs: [`A row of \`${q.module}.${q.name}\`.`],
      properties: q.columns.map((c) => ({ name: JSON.stringify(c.name), type: fieldTs(c) })),
    });
  }
  out.push(statementSpec({ name: `${q.module}.${q.name}`, sql: q.sql }, names));

  const decoder = q.rowResource
    ? decoderFor(model.resources.find((r) => r.name === q.rowResource)!.fields, row, `decode${row}`)
    : decoderFor(q.columns, row, `decode${row}`);
  // A resource's decoder is already emitted in its section; a query-specific one is emitted here.
  if (decoder && !q.rowResource) out.push(decoder.structure);

  const sql = names.statement(`${q.module}.${q.name}`);
  // A json argument is bound as its JSON text: drivers take scalars only.
  const jsonArgs = new Set(q.params.filter((p) => p.type === "json").map((p) => p.name));
  const values = q.sql.args.map((a) => (jsonArgs.has(a) ? `rt.toJson(args.${a})` : `args.${a}`)).join(", ");
  const result = queryResultTs(q, names);
  let body: string;
  if (q.one) {
    body = decoder
      ? `return ${decoder.name}(await db.one(${sql}, [${values}]));`
      : `return (await db.one(${sql}, [${values}])) as ${result};`;
  } else {
    body = decoder
      ? `const rows = await db.all(${sql}, [${values}]);\nreturn rows.map((r) => ${decoder.name}(r)!);`
      : `return (await db.all(${sql}, [${values}])) as ${result};`;
  }
  out.push({
    kind: StructureKind.Function,
    name: names.fn(q.module, q.name),
    isExported: true,
    isAsync: true,
    docs: q.doc ? [q.doc] : undefined,
    parameters: [
      { name: "db", type: "rt.Executor" },
      { name: q.params.length ? "args" : "_args", type: args },
    ],
    returnType: `Promise<${result}>`,
    statements: body,
  });
  return out;
}

/** Per action: its argument type and its body as straight-line TypeScript on one transaction. */
export function actionSection(model: Model, a: ActionModel, names: Names): Out {
  const out: Out = [`// ---- action ${a.module}.${a.name} ----`];
  const args = names.argsType(a.module, a.name);
  out.push(argsInterface(args, a.params, `Arguments of \`${a.module}.${a.name}\`.`));
  for (const s of model.statements.filter((x) => x.name.startsWith(`${a.module}.${a.name}.sql`))) {
    out.push(statementSpec(s, names));
  }
  const emitter = new IrEmitter(names, model);
  const body = emitter.stmts(a.body);
  const endsWithReturn = a.body.length > 0 && ["return", "fail"].includes(a.body[a.body.length - 1].kind);
  out.push({
    kind: StructureKind.Function,
    name: names.fn(a.module, a.name),
    isExported: true,
    isAsync: true,
    docs: a.doc ? [a.doc] : undefined,
    parameters: [
      { name: "tx", type: "rt.Executor" },
      { name: usesArgs(body) ? "args" : "_args", type: args },
      // The call's context: the caller (`auth`), and where a started session's cookie goes.
      ...(a.context === true ? [{ name: "ctx", type: "rt.CallContext" }] : []),
    ],
    returnType: `Promise<${valueTs(a.returns, names, model)}>`,
    statements: endsWithReturn ? body : `${body}\nreturn null;`,
  });
  return out;
}

function usesArgs(body: string): boolean {
  return /\bargs\./.test(body);
}

/**
 * `listTasksInput(input)`: checks and coerces the arguments of one call, straight-line,
 * one line per parameter. Unknown names, a missing required argument or a value of the
 * wrong type are 400s naming the argument, before anything runs.
 */
export function inputFunction(model: Model, module: string, name: string, params: ParamModel[], names: Names): Out {
  // Path parameters arrive as text even inside a JSON body: those arguments ask the input.
  const pathParams = new Set([
    ...model.routes
      .filter((r) => r.target.module === module && r.target.name === name)
      .flatMap((r) => r.segments.filter((s) => s.startsWith(":")).map((s) => s.slice(1))),
    // Route files pass path and query values as text even in a JSON call.
    ...routeFileTextParams(model, module, name),
  ]);
  const out: Out = [];
  const checks = new Map<string, string>();
  for (const p of params) {
    if (p.type === "enum") {
      const c = `${names.input(module, name).toUpperCase()}_${p.name.toUpperCase()}`;
      checks.set(p.name, c);
      out.push(`const ${c} = rt.arg.enumOf(${literal(p.enumValues)});`);
    }
  }
  const lines = params.map((p) => {
    const check = checks.get(p.name) ?? `rt.arg.${p.type}`;
    const text = pathParams.has(p.name) ? `rt.arg.isText(input, ${JSON.stringify(p.name)})` : "t";
    const conv = `${check}(a.${p.name}, ${JSON.stringify(p.name)}, ${text})`;
    const def = p.default === undefined ? "null" : JSON.stringify(p.default);
    let value: string;
    if (p.required) value = `a.${p.name} === undefined ? rt.arg.missing(${JSON.stringify(p.name)}) : ${conv}`;
    else if (p.nullable && p.default === undefined) value = `rt.arg.isAbsent(a.${p.name}, ${text}, true) ? null : ${conv}`;
    else if (p.nullable) value = `a.${p.name} === undefined ? ${def} : rt.arg.isAbsent(a.${p.name}, ${text}, true) ? null : ${conv}`;
    else value = `a.${p.name} === undefined ? ${def} : ${conv}`;
    return `${p.name}: ${value},`;
  });
  const known = literal(params.map((p) => p.name));
  out.push({
    kind: StructureKind.Function,
    name: names.input(module, name),
    parameters: [{ name: "input", type: "rt.CallInput" }],
    returnType: names.argsType(module, name),
    statements: params.length
      ? `const a = input.args;\n${lines.some((l) => /, t\)/.test(l)) ? "const t = input.text;\n" : ""}rt.arg.rejectUnknown(a, ${known});\nreturn {\n${lines.join("\n")}\n};`
      : `rt.arg.rejectUnknown(input.args, []);\nreturn {};`,
  });
  return out;
}
