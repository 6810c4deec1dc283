// Route-file blocks (docs/language.md §4) as plain async functions: gather the step's arguments
// from the request, call the target's endpoint (its validator coerces text to the declared
// types, its `requires` check and its transaction come with it), and return the route data
// and the redirect. Nothing here re-validates what the endpoint already does.

import { type StatementStructures, StructureKind } from "../ts-morph.js";
import type { Model, RouteBlockModel, RouteExprModel, RouteFileModel } from "../../analyze/model.js";
import { camelCase } from "../../analyze/shared/names.js";
import { key, literal } from "../literal.js";
import type { Names } from "../names.js";

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
  lines.push(`return { data: ${data}, redirect: ${redirect} };`);
  const body = lines.join("\n");
  // Only a block with a step calls an endpoint (with `db` and `ctx`); the request is read where a value comes from it.
  const readsInput = [...(step?.args.map((a) => a.value) ?? []), ...(block.redirect ? [block.redirect] : [])].some(fromRequest);
  const handler = block.handler ? `?handler=${block.handler}` : "";
  return {
    kind: StructureKind.Function,
    name: blockFunctionName(names, file, block),
    isAsync: true,
    docs: [`${block.method} ${file.path}${handler} (${block.source})`],
    parameters: [
      { name: step ? "db" : "_db", type: "rt.Database" },
      { name: readsInput ? "input" : "_input", type: "rt.RouteInput" },
      { name: step ? "ctx" : "_ctx", type: "rt.CallContext" },
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
  const always = args.filter((a) => isInput(a.value, "params") || isInput(a.value, "query")).map((a) => a.name);
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

function fromRequest(v: RouteExprModel): boolean {
  return v.kind === "input" || (v.kind === "concat" && v.parts.some(fromRequest));
}

/** A route-file value as TypeScript. Path parameters are always strings; anything else may be absent. */
function expr(v: RouteExprModel): string {
  switch (v.kind) {
    case "literal":
      return literal(v.value);
    case "input":
      return `input.${v.from}.${v.name}`;
    case "result":
      return v.field === null ? "result" : `rt.member(result, ${JSON.stringify(v.field)})`;
    case "caller":
      return v.path.length === 0 ? "ctx.caller ?? undefined" : `ctx.caller?.${v.path.join("?.")}`;
    case "concat":
      // Strings and path parameters join with +; anything else goes through rt.app.join,
      // where an absent value reads as "" (as `+` on text does in actions).
      return v.parts.every((p) => (p.kind === "literal" && typeof p.value === "string") || isInput(p, "params"))
        ? v.parts.map(expr).join(" + ")
        : `rt.app.join(${v.parts.map(expr).join(", ")})`;
  }
}
