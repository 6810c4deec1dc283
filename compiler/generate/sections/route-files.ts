// Route-file blocks (docs/language.md §4) as plain async functions: gather the step's arguments
// from the request, call the target's endpoint (its validator coerces text to the declared
// types, its `requires` check and its transaction come with it), and return the route data
// and the redirect. Nothing here re-validates what the endpoint already does.

import { type StatementStructures, StructureKind } from "../ts-morph.js";
import type { Model, RouteBlockModel, RouteExprModel, RouteFileModel } from "../../analyze/model/model.js";
import { camelCase } from "../../analyze/shared/names.js";
import { key, literal } from "../literal.js";
import type { Names } from "../names.js";
import { REQUEST, answerLiteral, reads, valueExpr as expr } from "./respond.js";

const CALLER: ReadonlySet<RouteExprModel["kind"]> = new Set(["caller"]);

type Out = (string | StatementStructures)[];

/** `apiTaskTrackerIdPostStartTask`: the function of one block. */
export function blockFunctionName(names: Names, file: RouteFileModel, block: RouteBlockModel): string {
  const parts = [...file.segments.map((s) => s.replace(/^:/, "")), block.method.toLowerCase(), block.handler ?? ""];
  const base = camelCase(parts.filter(Boolean).join("_").replace(/[^A-Za-z0-9_]/g, "_")) || "root";
  return names.app(`block:${file.source}:${block.method}:${block.handler ?? ""}`, /^[0-9]/.test(base) ? `r${base}` : base);
}

/** Per route file: one function per block. */
export function routeFileSection(model: Model, names: Names): Out {
  const out: Out = [];
  for (const file of model.app?.routeFiles ?? []) {
    out.push(`// ---- route file ${file.source}: ${file.path} ----`);
    for (const block of file.blocks) out.push(blockFunction(file, block, names));
  }
  return out;
}

function blockFunction(file: RouteFileModel, block: RouteBlockModel, names: Names): StatementStructures {
  const lines: string[] = [];
  let data = "{}";
  const step = block.step;
  if (step) {
    const endpoint = names.endpoint(step.target.module, step.target.name);
    const args = `{ ${step.args.map((a) => `${key(a.name)}: ${expr(a.value)}`).join(", ")} }`;
    const call = `${endpoint}.run(db, rt.app.callInput(${args}, { text: ${textArgs(block)} }), ctx)`;
    if (step.op === "query") {
      lines.push(`const records = await ${call};`);
      data = "{ records }";
    } else {
      lines.push(`const result = await ${call};`);
      if (step.op === "fetch") lines.push(`if (result === null) throw new rt.HttpError(404, "not found");`);
      data = "{ result }";
    }
  }
  const redirect = block.redirect ? expr(block.redirect) : "null";
  // The answer is made only for a JSON caller: a form post is redirected instead.
  const answer = block.respond ? `, answer: () => (${answerLiteral(block.respond, data)})` : "";
  lines.push(`return { data: ${data}, redirect: ${redirect}${answer} };`);
  const body = lines.join("\n");
  // Only a block with a step calls an endpoint (with `db` and `ctx`); the request and the caller are read where a value comes from them.
  const respondValues = block.respond ? [...(block.respond.body ? [block.respond.body] : []), ...block.respond.headers.map((h) => h.value)] : [];
  const values = [...(step?.args.map((a) => a.value) ?? []), ...(block.redirect ? [block.redirect] : []), ...respondValues];
  const readsInput = values.some((v) => reads(v, REQUEST));
  const readsCaller = values.some((v) => reads(v, CALLER));
  const handler = block.handler ? `?handler=${block.handler}` : "";
  return {
    kind: StructureKind.Function,
    name: blockFunctionName(names, file, block),
    isAsync: true,
    docs: [`${block.method} ${file.path}${handler}`],
    parameters: [
      { name: step ? "db" : "_db", type: "rt.Database" },
      { name: readsInput ? "input" : "_input", type: "rt.RouteInput" },
      { name: step || readsCaller ? "ctx" : "_ctx", type: "rt.CallContext" },
    ],
    returnType: "Promise<rt.RouteOutcome>",
    statements: body,
  };
}

/**
 * Which arguments arrive as text, decided at build time: path and query values always,
 * body values when the body is a form; literals and joined text never. `"all"` when all do.
 */
function textArgs(block: RouteBlockModel): string {
  const args = block.step?.args ?? [];
  const always = args.filter((a) => isInput(a.value, "params") || isInput(a.value, "query") || isRequestText(a.value)).map((a) => a.name);
  const body = args.filter((a) => isInput(a.value, "body")).map((a) => a.name);
  const list = (names: string[]) => (names.length === args.length ? `"all"` : literal(names));
  if (body.length === 0) return list(always);
  const form = list([...always, ...body]);
  const json = list(always);
  return form === json ? form : `input.form ? ${form} : ${json}`;
}

function isInput(v: RouteExprModel, from: "query" | "body" | "params"): boolean {
  return v.kind === "input" && v.from === from;
}

/** A request header or the base URL: text, whatever the body is. */
function isRequestText(v: RouteExprModel): boolean {
  return v.kind === "header" || v.kind === "baseUrl";
}

