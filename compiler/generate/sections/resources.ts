import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { Model, ResourceModel, StatementModel, StatementOwner } from "../../analyze/model/model.js";
import { tableChanges } from "../table-changes.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { fieldTs } from "../ts-types.js";
import { decoderFor, sqliteRowLiteral, statementSpec, tableSpecDeclaration } from "./shared.js";

/** Per resource: enum value lists, the row interface, the table spec, and its record operations. */
export function resourceSection(model: Model, r: ResourceModel, names: Names): (string | StatementStructures)[] {
  const out: (string | StatementStructures)[] = [`// ---- resource ${r.name} (${r.module}) ----`];
  const row = names.rowType(r.name);

  for (const f of r.fields) {
    if (f.type !== "enum") continue;
    out.push({
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      declarations: [{ name: names.enumValues(r.name, f.name), initializer: `${literal(f.enumValues)} as const` }],
    });
  }

  out.push({
    kind: StructureKind.Interface,
    name: row,
    isExported: true,
    docs: [r.doc ?? `A row of table \`${r.name}\`.`],
    properties: r.fields.map((f) => ({ name: f.name, type: fieldTs(f), docs: f.doc ? [f.doc] : undefined })),
  });

  out.push(tableSpecDeclaration(names.table(r.name), tableSpec(r)));

  const decode = decoderFor(r.fields.map((f) => ({ name: f.name, type: f.type })), row, `decode${row}`);
  if (decode) out.push(decode.structure);

  // Every record operation returns the fields in order, as do queries of `SELECT *` on the table.
  const sqliteRow = names.sqliteRow(r.name);
  out.push(sqliteRowLiteral(sqliteRow, r.fields.map((f) => f.name)));

  for (const s of model.statements) {
    if (s.owner.kind !== "record" || s.owner.resource !== r.name) continue;
    out.push(statementSpec(s, names.statement(s.name), sqliteRow));
    out.push(recordFunction(r, s.owner, s, names, decode?.name ?? null));
  }
  return out;
}

type RecordOwner = Extract<StatementOwner, { kind: "record" }>;

/** `taskGet(tx, id)`, `taskInsert(tx, row)`, `taskUpdateAssigneeStatus(tx, id, set)`, `taskDelete(tx, id)`, `accountRehashPassword(tx, id, before, next)`. */
function recordFunction(
  r: ResourceModel,
  owner: RecordOwner,
  s: StatementModel,
  names: Names,
  decode: string | null,
): StatementStructures {
  const row = names.rowType(r.name);
  // One key field: `key`; several: `key_<field>` each, in key order.
  const keys = r.primaryKey.map((k) => {
    const field = r.fields.find((f) => f.name === k)!;
    return { name: r.primaryKey.length === 1 ? "key" : `key_${k}`, type: fieldTs({ ...field, nullable: false }) };
  });
  const keyArgs = keys.map((k) => k.name).join(", ");
  const sql = names.statement(s.name);
  const wrap = (call: string) => (decode ? `${decode}(${call})` : `${call} as ${row} | null`);
  const jsonOut = (expr: string, field: string) =>
    ["json", "file"].includes(r.fields.find((f) => f.name === field)?.type ?? "") ? `rt.toJson(${expr})` : expr;
  let parameters: { name: string; type: string }[];
  let returnType = `Promise<${row} | null>`;
  let body: string;
  switch (owner.op) {
    case "insert": {
      const left = r.fields.filter((f) => !s.sql.args.includes(f.name)).map((f) => JSON.stringify(f.name));
      parameters = [{ name: "row", type: left.length > 0 ? `Omit<${row}, ${left.join(" | ")}>` : row }];
      returnType = `Promise<${row}>`;
      const args = s.sql.args.map((a) => jsonOut(`row.${a}`, a)).join(", ");
      // An insert always returns its row; `rt.Row` is any record, so the row type is asserted through unknown.
      body = `const inserted = await tx.one(${sql}, [${args}]);\nreturn ${decode ? `${decode}(inserted)!` : `inserted as unknown as ${row}`};`;
      break;
    }
    case "update": {
      const fields = owner.fields;
      parameters = [...keys, { name: "set", type: `Pick<${row}, ${fields.map((f) => JSON.stringify(f)).join(" | ")}>` }];
      const args = [...fields.map((f) => jsonOut(`set.${f}`, f)), keyArgs].join(", ");
      body = `return ${wrap(`await tx.one(${sql}, [${args}])`)};`;
      break;
    }
    // An update given `T??` values: a field left undefined keeps what the row holds.
    case "patch": {
      const fields = owner.fields;
      parameters = [
        ...keys,
        { name: "set", type: `Partial<Pick<${row}, ${fields.map((f) => JSON.stringify(f)).join(" | ")}>>` },
      ];
      const args = [...fields.flatMap((f) => [`set.${f} === undefined ? 0 : 1`, jsonOut(`set.${f} ?? null`, f)]), keyArgs].join(", ");
      body = `return ${wrap(`await tx.one(${sql}, [${args}])`)};`;
      break;
    }
    // verify_password's upgrade: the number of rows changed, 0 when the stored hash changed meanwhile.
    case "rehash":
      parameters = [
        ...keys,
        { name: "before", type: "string" },
        { name: "next", type: "string" },
      ];
      returnType = "Promise<number>";
      body = `return tx.run(${sql}, [next, ${keyArgs}, before]);`;
      break;
    default:
      parameters = keys;
      body = `return ${wrap(`await tx.one(${sql}, [${keyArgs}])`)};`;
  }
  return {
    kind: StructureKind.Function,
    name: names.recordFn(s.name),
    isAsync: true,
    parameters: [{ name: "tx", type: "rt.Executor" }, ...parameters],
    returnType,
    statements: body,
  };
}

/**
 * The table's spec: its DDL, what a violation of each unique index that says `fail …` answers,
 * and its declared changes (runtime/contract/evolve.ts TableChanges, without source places).
 */
function tableSpec(r: ResourceModel): object {
  const answers = r.indexes.flatMap((i) =>
    i.fail === undefined ? [] : [{ columns: i.columns.map((c) => c.name), status: i.fail.status, message: i.fail.message }],
  );
  const spec: Record<string, unknown> = { name: r.name, ddl: r.ddl };
  if (answers.length > 0) spec.uniqueAnswers = answers;
  if (r.changes) spec.changes = tableChanges(r.changes);
  return spec;
}

