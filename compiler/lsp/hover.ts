// Hover: what a name is, from the analyzed model where analysis decided it (a query's
// result row, an action's answer, a local's type) and from the declaration as written
// otherwise; a built-in's signature and doc; and what a diagnostic under the cursor means.

import type { Hover } from "vscode-languageserver";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type Model, type ParamModel, type ValueType, describe } from "./analyzed.js";
import type { ExpressionType } from "../analyze/model/model.js";
import type { Span } from "../parse/ast.js";
import { rangeOf } from "./convert.js";
import { builtinDoc, explainCode } from "./explain.js";
import { boundTypes } from "./local-types.js";
import type { Project } from "./project.js";
import type { Declaration, Occurrence, SymbolIndex } from "./symbols.js";

export function hover(project: Project, file: string, offset: number): Hover | null {
  const parts: string[] = [];
  const diagnostics = (project.result?.diagnostics ?? []).filter((d) => d.file === file && covers(d, offset));
  for (const d of diagnostics) {
    const explained = explainCode(d.code);
    parts.push([explained ?? `**${d.code}**`, d.hint ? `Hint: ${d.hint}` : ""].filter(Boolean).join("\n\n"));
  }
  const o = project.index.at(file, offset);
  const described = o ? describeOccurrence(o, project.index, project.result?.model ?? null) : null;
  // A name says what it is; anywhere else in a body, the smallest expression around the cursor says its type.
  const typed = described ? null : expressionAt(project.expressionTypes, file, offset);
  if (described) parts.unshift(described);
  else if (typed) parts.unshift(code(typed.types.map((t) => `: ${t}`).join("\n")));
  if (parts.length === 0) return null;
  const hover: Hover = { contents: { kind: "markdown", value: parts.join("\n\n---\n\n") } };
  if (o && described) hover.range = rangeOf(o.span);
  else if (typed) hover.range = rangeOf(typed.span);
  return hover;
}

/**
 * The innermost expression holding `offset` and its type; a fn's body is typed once per
 * kind of arguments it is called with, so one expression may have several.
 */
function expressionAt(all: readonly ExpressionType[], file: string, offset: number): { span: Span; types: string[] } | null {
  const start = (e: ExpressionType) => e.span.start.offset;
  const end = (e: ExpressionType) => e.span.end.offset;
  let best: ExpressionType | null = null;
  for (const e of all) {
    if (e.file !== file || offset < start(e) || offset > end(e)) continue;
    if (best === null || end(e) - start(e) < end(best) - start(best)) best = e;
  }
  if (best === null) return null;
  const b = best;
  const types = new Set(all.filter((e) => e.file === file && start(e) === start(b) && end(e) === end(b)).map((e) => describe(e.type)));
  return { span: b.span, types: [...types] };
}

function covers(d: Diagnostic, offset: number): boolean {
  return d.span !== null && d.span.start.offset <= offset && offset <= d.span.end.offset;
}

export function describeOccurrence(o: Occurrence, index: SymbolIndex, model: Model | null): string | null {
  if (o.kind === "builtin") {
    const doc = builtinDoc(o.key.slice(2));
    return doc ? code(doc.signatures.join("\n")) + (doc.doc ? `\n\n${doc.doc}` : "") : null;
  }
  const d = index.declarations.get(o.key);
  if (!d) return null;
  const [module, name] = splitKey(o.key);
  const text = signature(o, d, index, model, module, name);
  return text === null ? null : code(text) + (d.doc ? `\n\n${d.doc}` : "");
}

function signature(o: Occurrence, d: Declaration, index: SymbolIndex, model: Model | null, module: string, name: string): string | null {
  switch (o.kind) {
    case "resource": {
      const r = model?.resources.find((x) => x.module === module && x.name === name);
      if (!r) return `resource ${name}`;
      const fields = r.fields.map((f) => `  ${f.name}: ${f.type === "enum" ? `enum(${f.enumValues.join(", ")})` : f.type}${f.nullable ? "?" : ""}`);
      return `resource ${name} {\n${fields.join("\n")}\n}`;
    }
    case "field":
    case "param":
      return `${o.kind === "field" ? "field" : d.parent ? `(${d.parent})` : "param"} ${o.key.split(".").pop()}: ${d.typeText ?? "inferred from each call"}`;
    case "type":
      return `type ${name} {\n${[...index.declarations.values()]
        .filter((m) => m.parent === name && m.module === module && m.occurrence.key.startsWith(`P:${module}.${name}.`))
        .map((m) => `  ${m.occurrence.key.split(".").pop()}: ${m.typeText}`)
        .join("\n")}\n}`;
    case "query": {
      const q = model?.queries.find((x) => x.module === module && x.name === name);
      if (!q) return `query ${name}`;
      const row = q.columns.map((c) => `  ${c.name}: ${c.type}${c.nullable ? "?" : ""}`).join("\n");
      return `query ${name}(${params(q.params)}) → ${q.one ? "one row or null" : "rows"} of {\n${row}\n}`;
    }
    case "action": {
      const a = model?.actions.find((x) => x.module === module && x.name === name);
      return a ? `action ${name}(${params(a.params)}) → ${describe(a.returns)}` : `action ${name}`;
    }
    case "fn": {
      const instances = (model?.fns ?? []).filter((f) => f.module === module && f.name === name);
      if (instances.length === 0) return `fn ${name}`;
      return instances.map((f) => `fn ${name}(${f.params.map((p) => `${p.name}: ${describe(p.type)}`).join(", ")}) → ${describe(f.returns)}`).join("\n");
    }
    case "local":
      return `let ${o.name}: ${localType(o, d, index, model) ?? "unknown"}`;
    case "credential": {
      const c = model?.credentials?.find((x) => x.name === o.key.slice(2));
      const from = c ? ("env" in c.from ? `from the environment variable ${c.from.env}` : `from the file ${c.from.file}`) : "";
      return `credential ${o.key.slice(2)}${from ? ` (${from})` : ""}`;
    }
    case "module":
      return `module ${o.key.slice(2)}`;
    default:
      return null;
  }
}

function localType(o: Occurrence, d: Declaration, index: SymbolIndex, model: Model | null): string | null {
  if (!model || d.parent === null) return null;
  const body =
    model.actions.find((a) => a.module === d.module && a.name === d.parent)?.body ??
    model.fns?.find((f) => f.module === d.module && f.name === d.parent)?.body;
  if (!body) return null;
  const name = o.name;
  // Which binding of the name this is, counting the declarations of the same name in the same body before it.
  const decl = d.occurrence;
  const earlier = [...index.declarations.values()].filter(
    (x) =>
      x.occurrence.kind === "local" &&
      x.parent === d.parent &&
      x.module === d.module &&
      x.occurrence.file === decl.file &&
      x.occurrence.name === name &&
      x.occurrence.span.start.offset < decl.span.start.offset,
  ).length;
  const types = boundTypes(body, name);
  const t: ValueType | undefined = types[earlier] ?? types[0];
  return t ? describe(t) : null;
}

function params(ps: readonly ParamModel[]): string {
  return ps
    .map((p) => `${p.name}: ${p.shape?.kind === "record" ? p.shape.type : p.type === "enum" ? `enum(${p.enumValues.join(", ")})` : p.type}${p.absent ? "??" : p.nullable ? "?" : ""}`)
    .join(", ");
}

/** `R:todo.task` → ["todo", "task"]; `F:todo.task.title` → ["todo", "task"]. */
function splitKey(key: string): [string, string] {
  const [module = "", name = ""] = key.slice(2).split(".");
  return [module, name];
}

function code(text: string): string {
  return "```svc\n" + text + "\n```";
}
