// Completion, by where the cursor is: inside SQL (the tables of the module, the fields of
// the tables the statement reads, `@` arguments), in a route file (module, query and action
// names of data steps), in an action or fn body (statements, built-ins as snippets, queries,
// actions and fns with their named arguments, arguments and lets in scope), in a resource
// (field types) and between declarations (declaration keywords as snippets).

import { type CompletionItem, CompletionItemKind, InsertTextFormat } from "vscode-languageserver";
import type { Model } from "./analyzed.js";
import { refByQualifier, sameName, sqlTokens, tableRefs } from "./analyzed.js";
import { builtinDoc, builtinNames } from "./explain.js";
import type { Project } from "./project.js";
import type { Declaration, SqlRegion } from "./symbols.js";

const STATEMENTS: [string, string][] = [
  ["let", "let ${1:name} = ${0}"],
  ["if", "if ${1:condition} {\n\t${0}\n}"],
  ["else", "else {\n\t${0}\n}"],
  ["for", "for ${1:item} in ${2:list} {\n\t${0}\n}"],
  ["fail", 'fail ${1:400} "${2:message}"'],
  ["return", "return ${0}"],
  ["sql", "sql {\n\t${0}\n}"],
  ["yield", "yield ${0}"],
  ["get", "get ${1:resource}(${2:key})"],
  ["insert", "insert ${1:resource} {\n\t${0}\n}"],
  ["update", "update ${1:resource}(${2:key}) {\n\t${0}\n}"],
  ["delete", "delete ${1:resource}(${2:key})"],
];

const DECLARATIONS: [string, string][] = [
  ["resource", "resource ${1:name} {\n\tid: id\n\t${0}\n}"],
  ["query", "query ${1:name}(${2}) {\n\t${0}\n}"],
  ["action", "action ${1:name}(${2}) {\n\t${0}\n}"],
  ["fn", "fn ${1:name}(${2}) {\n\t${0}\n}"],
  ["type", "type ${1:Name} {\n\t${0}\n}"],
  ["route", 'route ${1:GET} "${2:/path}" => ${0}'],
  ["webhook", 'webhook ${1:name} {\n\tprovider: "${2:github}"\n\tsecret: credentials.${3:name}\n\tpath: "${4:/webhooks/name}"\n\thandler: ${0}\n}'],
  ["private", "private "],
  ["public", "public "],
  ["drop resource", "drop resource ${0:name}"],
];

/** After a resource field's type: how it changed (docs/language.md §2.1, Changing a resource). */
const FIELD_CHANGES: [string, string][] = [
  ["renamed from", "renamed from ${0:old_name}"],
  ["changed from", "changed from ${0:old_type}"],
  ["using", "using (${0:sql})"],
  ["back", "back (${0:sql})"],
  ["lossy", "lossy"],
  ["backfill", "backfill ${0:value}"],
];

const TYPES = ["id", "text", "int", "float", "bool", "timestamp", "json", "enum", "file", "list"];
const SQL_KEYWORDS = ["SELECT", "FROM", "WHERE", "JOIN", "LEFT JOIN", "ON", "ORDER BY", "GROUP BY", "LIMIT", "INSERT INTO", "VALUES", "UPDATE", "SET", "DELETE FROM", "RETURNING", "AND", "OR", "NOT", "NULL", "AS", "DESC", "ASC"];
const STEPS = ["query", "invoke", "fetch", "redirect", "respond", "limit"];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

export function complete(project: Project, file: string, text: string, offset: number, routeFile: boolean): CompletionItem[] {
  const before = text.slice(Math.max(0, text.lastIndexOf("\n", offset - 1) + 1), offset);
  const model = project.result?.model ?? null;
  if (routeFile) return routeFileItems(before, model);
  const region = project.index.sqlRegionAt(file, offset);
  if (region) return sqlItems(project, region, text, offset, before);
  const owner = enclosing(project, file, offset);
  const module = owner?.module ?? moduleOfFile(project, file);
  if (/\b(get|insert|update|delete)\s+\w*$/.test(before)) return resources(project, module);
  if (/\bcredentials\.\w*$/.test(before)) return (model?.credentials ?? []).map((c) => item(c.name, CompletionItemKind.Constant));
  if (owner === null) return DECLARATIONS.map(([label, snippet]) => snippetItem(label, snippet, CompletionItemKind.Keyword));
  const kind = owner.occurrence.kind;
  // Before a declaration's first `{` is its parameter list; in a resource or type, `name:` is followed by a type.
  const inHead = !text.slice(owner.span.start.offset, offset).includes("{");
  if (kind === "resource" || kind === "type" || inHead) {
    if (/:\s*\w*$/.test(before)) return typeItems(project, module);
    if (kind === "resource" && /^\s*\w+\s*:\s*\S.*\s\w*$/.test(before)) {
      return FIELD_CHANGES.map(([label, snippet]) => snippetItem(label, snippet, CompletionItemKind.Keyword));
    }
    return kind === "resource" ? ["index", "unique", "key", "drop"].map((k) => item(k, CompletionItemKind.Keyword)) : [];
  }
  if (owner.occurrence.kind !== "action" && owner.occurrence.kind !== "fn") return [];
  return [
    ...STATEMENTS.map(([label, snippet]) => snippetItem(label, snippet, CompletionItemKind.Keyword)),
    ...builtinNames().map(builtinItem),
    ...callables(project, module, model),
    ...inScope(project, owner, file, offset),
    item("auth", CompletionItemKind.Variable),
  ];
}

function routeFileItems(before: string, model: Model | null): CompletionItem[] {
  const named = /\b(query|invoke|fetch)\s+([A-Za-z_]\w*)\.\w*$/.exec(before);
  if (named) {
    const [, op, module] = named;
    const queries = op === "invoke" ? [] : (model?.queries ?? []).filter((q) => q.module === module && !q.private);
    const actions = op === "query" ? [] : (model?.actions ?? []).filter((a) => a.module === module && !a.private);
    return [
      ...queries.map((q) => detailed(item(q.name, CompletionItemKind.Function), q.doc)),
      ...actions.map((a) => detailed(item(a.name, CompletionItemKind.Method), a.doc)),
    ];
  }
  if (/\b(query|invoke|fetch)\s+\w*$/.test(before)) return (model?.modules ?? []).map((m) => item(m, CompletionItemKind.Module));
  if (/^\s+\w*$/.test(before)) return STEPS.map((s) => item(s, CompletionItemKind.Keyword));
  if (/^\w*$/.test(before)) return METHODS.map((m) => snippetItem(m, `${m} {\n\t$0\n}`, CompletionItemKind.Keyword));
  return [];
}

function sqlItems(project: Project, region: SqlRegion, text: string, offset: number, before: string): CompletionItem[] {
  const fields = (resource: string) =>
    [...project.index.declarations.values()]
      .filter((d) => d.occurrence.kind === "field" && d.module === region.module && d.parent === resource)
      .map((d) => detailed(item(d.occurrence.name, CompletionItemKind.Field), d.typeText ?? null));
  if (/@\w*$/.test(before)) {
    return [...project.index.declarations.values()]
      .filter((d) => (d.occurrence.kind === "param" || d.occurrence.kind === "local") && d.module === region.module && d.parent === region.owner && d.occurrence.span.start.offset < offset)
      .map((d) => detailed(item(d.occurrence.name, CompletionItemKind.Variable), d.typeText ?? null));
  }
  const body = text.slice(region.start, region.end);
  const tokens = sqlTokens(body);
  const refs = tableRefs(tokens);
  const resourceNames = [...project.index.declarations.values()].filter((d) => d.occurrence.kind === "resource" && d.module === region.module).map((d) => d.occurrence.name);
  const declared = (name: string) => resourceNames.find((r) => sameName(r, name));
  const qualified = /([A-Za-z_]\w*)\.\w*$/.exec(before);
  if (qualified) {
    const ref = refByQualifier(refs, qualified[1]);
    const table = declared(ref?.table ?? qualified[1]);
    return table ? fields(table) : [];
  }
  const read = refs.map((r) => (r.table ? declared(r.table) : undefined)).filter((r): r is string => r !== undefined);
  return [
    ...resourceNames.map((r) => item(r, CompletionItemKind.Class)),
    ...[...new Set(read)].flatMap(fields),
    ...SQL_KEYWORDS.map((k) => item(k, CompletionItemKind.Keyword)),
  ];
}

function resources(project: Project, module: string): CompletionItem[] {
  return [...project.index.declarations.values()]
    .filter((d) => d.occurrence.kind === "resource" && d.module === module)
    .map((d) => detailed(item(d.occurrence.name, CompletionItemKind.Class), d.doc));
}

function typeItems(project: Project, module: string): CompletionItem[] {
  const records = [...project.index.declarations.values()].filter((d) => d.occurrence.kind === "type" && d.module === module);
  return [...TYPES.map((t) => item(t, CompletionItemKind.TypeParameter)), ...records.map((d) => item(d.occurrence.name, CompletionItemKind.Struct))];
}

/** Queries, actions and fns of the module, each a snippet with its named arguments. */
function callables(project: Project, module: string, model: Model | null): CompletionItem[] {
  const out: CompletionItem[] = [];
  for (const q of model?.queries ?? []) if (q.module === module) out.push(callItem(q.name, q.params.map((p) => p.name), CompletionItemKind.Function, q.doc, true));
  for (const a of model?.actions ?? []) if (a.module === module) out.push(callItem(a.name, a.params.map((p) => p.name), CompletionItemKind.Method, a.doc, true));
  const fns = [...project.index.declarations.values()].filter((d) => d.occurrence.kind === "fn" && d.module === module);
  for (const f of fns) {
    const params = [...project.index.declarations.values()].filter((p) => p.occurrence.kind === "param" && p.parent === f.occurrence.name && p.module === module);
    out.push(callItem(f.occurrence.name, params.map((p) => p.occurrence.name), CompletionItemKind.Function, f.doc, false));
  }
  return out;
}

/** Arguments of the enclosing declaration and lets declared before the cursor in it. */
function inScope(project: Project, owner: Declaration, file: string, offset: number): CompletionItem[] {
  return [...project.index.declarations.values()]
    .filter(
      (d) =>
        (d.occurrence.kind === "param" || (d.occurrence.kind === "local" && d.occurrence.file === file && d.occurrence.span.start.offset < offset)) &&
        d.parent === owner.occurrence.name &&
        d.module === owner.module,
    )
    .map((d) => detailed(item(d.occurrence.name, CompletionItemKind.Variable), d.typeText ?? null));
}

function enclosing(project: Project, file: string, offset: number): Declaration | null {
  for (const d of project.index.declarations.values()) {
    if (d.parent !== null || d.occurrence.file !== file) continue;
    if (d.span.start.offset <= offset && offset <= d.span.end.offset && d.occurrence.kind !== "local") return d;
  }
  return null;
}

function moduleOfFile(project: Project, file: string): string {
  return project.index.inFile(file).find((o) => o.kind === "module")?.name ?? "";
}

function builtinItem(name: string): CompletionItem {
  const doc = builtinDoc(name);
  const signature = doc?.signatures[0] ?? `${name}()`;
  const args = /\((.*)\)/.exec(signature)?.[1] ?? "";
  const names = args
    .replace(/\[.*\]/g, "")
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a && a !== "…");
  const snippet = `${name}(${names.map((a, i) => `\${${i + 1}:${a}}`).join(", ")})`;
  const out = snippetItem(name, snippet, CompletionItemKind.Function);
  out.detail = signature;
  if (doc?.doc) out.documentation = { kind: "markdown", value: doc.doc };
  return out;
}

function callItem(name: string, params: string[], kind: CompletionItemKind, doc: string | null, named: boolean): CompletionItem {
  const args = params.map((p, i) => (named ? `${p}: \${${i + 1}:${p}}` : `\${${i + 1}:${p}}`)).join(", ");
  return detailed(snippetItem(name, `${name}(${args})`, kind), doc);
}

function item(label: string, kind: CompletionItemKind): CompletionItem {
  return { label, kind };
}

function snippetItem(label: string, snippet: string, kind: CompletionItemKind): CompletionItem {
  return { label, kind, insertText: snippet, insertTextFormat: InsertTextFormat.Snippet };
}

function detailed(i: CompletionItem, detail: string | null): CompletionItem {
  if (detail) i.detail = detail;
  return i;
}
