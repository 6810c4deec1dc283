import { IndentationText, Project, QuoteKind, type SourceFile, type StatementStructures, ts } from "./ts-morph.js";
import type { ActionModel, Model, QueryModel } from "../analyze/model/model.js";
import { readTemplate } from "../templates.js";
import { format } from "./format.js";
import { PRETTIER_RC } from "./format-options.js";
import { Names } from "./names.js";
import { actionSection, inputFunction, querySection } from "./sections/calls.js";
import { jobSection } from "./sections/jobs.js";
import { fnSection } from "./sections/fns.js";
import { resourceSection } from "./sections/resources.js";
import { recordTypeSection } from "./sections/shapes.js";
import { endpointSection, specSection } from "./sections/server.js";
import { pageSection, publicOutputFiles } from "./sections/pages.js";
import { respondSection } from "./sections/respond.js";
import { routeFileSection } from "./sections/route-files.js";
import { webhookSection } from "./sections/webhooks.js";
import { apiOutputs } from "./api-outputs.js";
import { SQL_MODULE, splitSql } from "./sql-file.js";

/** A file the generator produces; one writer (the CLI) puts drafts on disk. */
export interface OutputFile {
  /** Relative to the output folder, with forward slashes (`public/img/logo.png`). */
  path: string;
  /** Text, or the bytes of a public/ file. */
  contents: string | Buffer;
}

export interface GenerateOptions {
  /**
   * Where the server loads the runtime from (default `svc/runtime`). A module specifier is
   * loaded with `require` (runtimeLoad); a URL (`file:…`, for a server run from memory as a
   * `data:` module, which has no path to require from) is imported.
   */
  runtimeImport?: string;
  /** False leaves server.ts as ts-morph prints it, skipping prettier: `svc dev` only runs the JavaScript. Default true. */
  pretty?: boolean;
  /** False leaves out openapi.json and the client (bench/api-outputs.ts measures what they cost). Default true. */
  apiOutputs?: boolean;
}

/**
 * Model → `server.ts` (typed, formatted with prettier, byte-for-byte the same for the same
 * model), its companion `sql.ts` (the tables' DDL and the statements' text per dialect,
 * which server.ts imports: sql-file.ts), and `server.js`/`sql.js` (the same code with its
 * types removed by TypeScript's `transpileModule`: no type check, one file, no
 * configuration; the analyzer already checked what matters, and it is the transpiler
 * ts-morph already loaded). The JavaScript is compiled from the TypeScript as written, so
 * what runs is exactly what is reviewed.
 */
export async function generate(model: Model, options: GenerateOptions = {}): Promise<OutputFile[]> {
  const pretty = options.pretty !== false;
  const raw = sources(model, options);
  // The formatter thread works on server.ts while this thread makes the API outputs, and
  // on client.ts while this one transpiles server.ts: the outputs add little to a build.
  const formatted = pretty ? format(raw.server) : Promise.resolve(raw.server);
  const formattedSql = raw.sql === null ? null : pretty ? format(raw.sql) : Promise.resolve(raw.sql);
  const api = options.apiOutputs === false ? null : apiOutputs(model, pretty);
  const ts_ = await formatted;
  const sqlTs = formattedSql === null ? null : await formattedSql;
  const files: OutputFile[] = [
    { path: "server.ts", contents: ts_ },
    { path: "server.js", contents: transpile(ts_) },
    ...(sqlTs === null
      ? []
      : [
          { path: `${SQL_MODULE}.ts`, contents: sqlTs },
          { path: `${SQL_MODULE}.js`, contents: transpile(sqlTs) },
        ]),
    // server.js is an ES module wherever dist/ lands, whatever the enclosing package says.
    { path: "package.json", contents: readTemplate("output/package.json") },
    // The options server.ts is formatted with, where a user's prettier looks for them.
    { path: ".prettierrc.json", contents: PRETTIER_RC },
    ...publicOutputFiles(model),
  ];
  // openapi.json and the typed client (docs/openapi.md), made from the same model.
  if (api !== null) files.push(...(await api.files()));
  return files;
}

/** server.ts, formatted with prettier unless `pretty` is false. */
export async function generateServerTs(model: Model, options: GenerateOptions = {}): Promise<string> {
  const raw = sources(model, options).server;
  return options.pretty === false ? raw : format(raw);
}

/** sql.ts (null when the server runs no SQL), formatted with prettier unless `pretty` is false. */
export async function generateSqlTs(model: Model, options: GenerateOptions = {}): Promise<string | null> {
  const raw = sources(model, options).sql;
  return options.pretty === false || raw === null ? raw : format(raw);
}

/** server.ts and sql.ts as ts-morph prints them. */
function sources(model: Model, options: GenerateOptions): { server: string; sql: string | null } {
  const names = new Names(model);
  // Name queries and actions first, so their statements are named after them.
  for (const q of model.queries) names.fn(q.module, q.name);
  for (const a of model.actions) names.fn(a.module, a.name);

  const statements: (string | StatementStructures)[] = [];
  for (const r of model.resources) statements.push(...resourceSection(model, r, names));
  for (const t of model.types ?? []) statements.push(...recordTypeSection(model, t, names));
  // Private code no route file calls is never called with a request's input.
  const takesInput = (e: QueryModel | ActionModel) => e.endpoint !== null;
  for (const q of model.queries) {
    statements.push(...querySection(model, q, names));
    if (takesInput(q)) statements.push(...inputFunction(q, names));
  }
  for (const f of model.fns ?? []) statements.push(...fnSection(model, f, names));
  for (const a of model.actions) {
    statements.push(...actionSection(model, a, names));
    if (takesInput(a) || a.job !== undefined) statements.push(...inputFunction(a, names));
  }
  statements.push(...jobSection(model, names));
  statements.push(...webhookSection(model, names));
  statements.push(...endpointSection(model, names));
  statements.push(...respondSection(model, names));
  statements.push(...routeFileSection(model, names));
  statements.push(...pageSection(model, names));
  statements.push(...specSection(model, names));

  const split = splitSql(statements);
  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Double },
  });
  const runtime = options.runtimeImport ?? "svc/runtime";
  const file = project.createSourceFile("server.ts", "", { overwrite: true });
  runtimeLoad(file, runtime);
  if (split.imports.length > 0) {
    file.addStatements([
      `// The tables' DDL and the statements' text, per dialect, are in ${SQL_MODULE}.ts beside this file.`,
      `import { ${split.imports.join(", ")} } from ${JSON.stringify(`./${SQL_MODULE}.js`)};`,
    ]);
  }
  file.addStatements(spaced(split.server));
  const server = generatedHeader(model, []) + file.getFullText();
  if (split.sql.length === 0) return { server, sql: null };

  const sqlFile = project.createSourceFile(`${SQL_MODULE}.ts`, "", { overwrite: true });
  // Types only: sql.js loads nothing.
  sqlFile.addImportDeclaration({ isTypeOnly: true, namespaceImport: "rt", moduleSpecifier: runtime });
  sqlFile.addStatements(spaced(split.sql));
  const about = [
    "// The SQL server.ts runs: each table's DDL and each statement's text, per dialect.",
  ];
  return { server, sql: generatedHeader(model, about) + sqlFile.getFullText() };
}

/** `// Code generated by svc from <model>. DO NOT EDIT.`, the sources, then `about`. */
function generatedHeader(model: Model, about: string[]): string {
  return [
    `// Code generated by svc from ${model.name}. DO NOT EDIT.`,
    "// Sources:",
    ...model.sources.map((s) => `//   ${s}`),
    ...about,
    "",
  ].join("\n");
}

/** A blank line before each section comment keeps the sections apart after formatting. */
function spaced(items: (string | StatementStructures)[]): (string | StatementStructures)[] {
  return items.flatMap((s) => (typeof s === "string" && s.startsWith("// ----") ? ["\n", s] : [s]));
}

/**
 * The runtime's import. Node's ES module loader opens a FileHandle, an EventEmitter, for each
 * module it reads: the runtime's ~140 of them, made before the first request, leave V8's inline
 * caches in the EventEmitter constructor megamorphic, and every request's response is one
 * (about 1,200 instructions a request, bench/README.md). `require` of an ES module reads each
 * file with one synchronous read and makes none. TypeScript writes `import rt = require(…)` in an
 * ES module as `createRequire(import.meta.url)`, and `rt` still names the runtime's types.
 */
function runtimeLoad(file: SourceFile, specifier: string): void {
  if (URL.canParse(specifier)) {
    file.addImportDeclaration({ namespaceImport: "rt", moduleSpecifier: specifier });
    return;
  }
  file.addStatements([
    "// Loaded with require, not import: each module the ES module loader reads makes an EventEmitter,",
    "// and the runtime's many would slow every response's construction (svc's docs/language.md).",
    `import rt = require(${JSON.stringify(specifier)});`,
  ]);
}

export function transpile(source: string): string {
  // The "Code generated … DO NOT EDIT." header stays the first line: TypeScript would put the
  // createRequire it writes for `import rt = require()` above it.
  const header = /^(?:\/\/.*\n)*/.exec(source)![0];
  // NodeNext and an .mts name: the file is an ES module, whose `import x = require()` becomes
  // createRequire; every other statement is written as ESNext would write it.
  const body = ts.transpileModule(source.slice(header.length), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, verbatimModuleSyntax: false },
    fileName: "server.mts",
    reportDiagnostics: false,
  }).outputText;
  return header + body;
}
