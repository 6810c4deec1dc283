import { type StatementStructures, StructureKind } from "../ts-morph.js";
import type { ActionModel, Model, ParamModel, QueryModel } from "../../analyze/model/model.js";
import { IrEmitter } from "../emit-ir.js";
import { walkBody } from "../../analyze/transactions/transaction.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { fieldTs, queryResultTs, queryRowTs, valueTs } from "../ts-types.js";
import { decoderFor, sameOrder, statementSpec } from "./shared.js";
import { ShapeChecks, shapeTs } from "./shapes.js";

type Out = (string | StatementStructures)[];

function argsInterface(name: string, params: ParamModel[], doc: string, names: Names): StatementStructures {
  return {
    kind: StructureKind.Interface,
    name,
    isExported: true,
    docs: [doc],
    // A `T??` argument is left out (undefined) when the call did not give it.
    properties: params.map((p) => ({ name: p.name, type: p.shape ? shapeTs(p.shape, names) : fieldTs(p), ...(p.absent ? { hasQuestionToken: true } : {}) })),
  };
}

/** Per query: its argument and row types, its statement, and one plain function. */
export function querySection(model: Model, q: QueryModel, names: Names): Out {
  const out: Out = [`// ---- query ${q.module}.${q.name} ----`];
  const args = names.argsType(q.module, q.name);
  out.push(argsInterface(args, q.params, `Arguments of \`${q.module}.${q.name}\`.`, names));
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
  const sql = names.querySql(q.module, q.name);
  const columns = q.columns.map((c) => c.name);
  const resource = q.rowResource === null ? undefined : model.resources.find((r) => r.name === q.rowResource);
  const fieldsInOrder = resource !== undefined && sameOrder(columns, resource.fields.map((f) => f.name));
  out.push(statementSpec({ name: `${q.module}.${q.name}`, sql: q.sql }, sql, fieldsInOrder ? names.sqliteRow(resource.name) : columns));

  const decoder = q.rowResource
    ? decoderFor(model.resources.find((r) => r.name === q.rowResource)!.fields, row, `decode${row}`)
    : decoderFor(q.columns, row, `decode${row}`);
  // A resource's decoder is already emitted in its section; a query-specific one is emitted here.
  if (decoder && !q.rowResource) out.push(decoder.structure);

  const values = queryValues(q);
  const result = queryResultTs(q, names);
  // No async wrapper: a read answers at once where the database can (SQLite outside a
  // transaction), and an async function would make a promise of it, whose turn of the
  // microtask queue every call of the query would pay. Decoding is applied at once too.
  let body: string;
  if (q.one) {
    body = decoder
      ? `return rt.whenRead(db.one(${sql}, [${values}]), ${decoder.name});`
      : `return db.one(${sql}, [${values}]) as rt.Awaitable<${result}>;`;
  } else {
    body = decoder
      ? `return rt.whenRead(db.all(${sql}, [${values}]), (rows) => rows.map((r) => ${decoder.name}(r)!));`
      : `return db.all(${sql}, [${values}]) as unknown as rt.Awaitable<${result}>;`;
  }
  out.push({
    kind: StructureKind.Function,
    name: names.fn(q.module, q.name),
    isExported: true,
    docs: q.doc ? [q.doc] : undefined,
    parameters: [
      { name: "db", type: "rt.Executor" },
      { name: q.params.length ? "args" : "_args", type: args },
    ],
    returnType: `rt.Awaitable<${result}>`,
    statements: body,
  });
  return out;
}

/** The statement's arguments, from the query's `args`: `args.id, args.limit`. */
export function queryValues(q: QueryModel): string {
  // A json argument is bound as its JSON text: drivers take scalars only.
  const jsonArgs = new Set(q.params.filter((p) => p.type === "json").map((p) => p.name));
  return q.sql.args.map((a) => (jsonArgs.has(a) ? `rt.toJson(args.${a})` : `args.${a}`)).join(", ");
}

/** Per action: its argument type and its body as straight-line TypeScript on one transaction. */
export function actionSection(model: Model, a: ActionModel, names: Names): Out {
  const out: Out = [`// ---- ${a.job === undefined ? "action" : "job"} ${a.module}.${a.name} ----`];
  const args = names.argsType(a.module, a.name);
  out.push(argsInterface(args, a.params, `Arguments of \`${a.module}.${a.name}\`.`, names));
  for (const s of model.statements) {
    if (s.owner.kind === "sql" && s.owner.module === a.module && s.owner.action === a.name) {
      out.push(statementSpec(s, names.statement(s.name)));
    }
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
      { name: emitter.readsArgs ? "args" : "_args", type: args },
      // The call's context: the caller (`auth`), and where a started session's cookie goes.
      ...(a.context === true ? [{ name: "ctx", type: "rt.CallContext" }] : []),
      // A job's run: `job_id()` reads it.
      ...(a.job !== undefined ? [{ name: usesJob(a) ? "job" : "_job", type: "rt.JobRun" }] : []),
    ],
    returnType: `Promise<${valueTs(a.returns, names, model)}>`,
    statements: endsWithReturn ? body : `${body}\nreturn null;`,
  });
  return out;
}

/**
 * `listTasksInput(input)`: checks and coerces the arguments of one call, straight-line,
 * one line per parameter. Unknown names, a missing required argument or a value of the
 * wrong type are 400s naming the argument, before anything runs.
 */
export function inputFunction(endpoint: QueryModel | ActionModel, names: Names): Out {
  const { module, name, params } = endpoint;
  // Path and query values arrive as text even inside a JSON body: the model names those arguments.
  const textArgs = new Set(endpoint.textArgs);
  const out: Out = [];
  const checks = new Map<string, string>();
  for (const p of params) {
    if (p.type === "enum") {
      const c = `${names.input(module, name).toUpperCase()}_${p.name.toUpperCase()}`;
      checks.set(p.name, c);
      out.push(`const ${c} = rt.arg.enumOf(${literal(p.enumValues)});`);
    }
  }
  const shapes = new ShapeChecks(names, names.input(module, name));
  const lines = params.map((p) => {
    const check = checks.get(p.name) ?? `rt.arg.${p.type}`;
    // Every reader says where its "arrived as text" comes from: the whole input (a query string
    // or a form), or, for an argument a route's path may carry into a JSON body, the input by name.
    const text = textArgs.has(p.name) ? `rt.arg.isText(input, ${JSON.stringify(p.name)})` : "input.text";
    const arg = JSON.stringify(p.name);
    // A list or record is checked item by item and member by member, naming the path (`tags[3]`, `user.email`).
    const conv = p.shape
      ? shapes.value({ ...p.shape, nullable: false }, `rt.shape.fromText(a.${p.name}, ${arg}, ${text})`, arg, p.name)
      : `${check}(a.${p.name}, ${arg}, ${text})`;
    const def = p.default === undefined ? "null" : JSON.stringify(p.default);
    let value: string;
    if (p.required) value = `a.${p.name} === undefined ? rt.arg.missing(${JSON.stringify(p.name)}) : ${conv}`;
    else if (p.absent) value = `a.${p.name} === undefined ? undefined : rt.arg.isNull(a.${p.name}, ${text}) ? null : ${conv}`;
    else if (p.nullable && p.default === undefined) value = `rt.arg.isNull(a.${p.name}, ${text}) ? null : ${conv}`;
    else if (p.nullable) value = `a.${p.name} === undefined ? ${def} : rt.arg.isNull(a.${p.name}, ${text}) ? null : ${conv}`;
    else value = `a.${p.name} === undefined ? ${def} : ${conv}`;
    return `${p.name}: ${value},`;
  });
  const known = literal(params.map((p) => p.name));
  out.push(...shapes.constants);
  out.push({
    kind: StructureKind.Function,
    name: names.input(module, name),
    parameters: [{ name: "input", type: "rt.CallInput" }],
    returnType: names.argsType(module, name),
    statements: params.length
      ? `const a = input.args;\nrt.arg.rejectUnknown(a, ${known});\nreturn {\n${lines.join("\n")}\n};`
      : `rt.arg.rejectUnknown(input.args, []);\nreturn {};`,
  });
  return out;
}

/** Whether a job's body reads `job_id()`. */
function usesJob(a: ActionModel): boolean {
  let found = false;
  walkBody(a.body, (e) => {
    found ||= e.kind === "builtin" && e.name === "job_id";
  });
  return found;
}
