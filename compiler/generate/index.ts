import { IndentationText, Project, QuoteKind, type SourceFile, type StatementStructures, ts } from "./ts-morph.js";
import type { Model } from "../analyze/model.js";
import { readTemplate } from "../templates.js";
import { format } from "./format.js";
import { PRETTIER_RC } from "./format-options.js";
import { Names } from "./names.js";
import { actionSection, inputFunction, querySection } from "./sections/calls.js";
import { jobSection } from "./sections/jobs.js";
import { fnSection } from "./sections/fns.js";
import { resourceSection } from "./sections/resources.js";
import { recordTypeSection } from "./sections/shapes.js";
import { endpointSection, routeFileTargets, specSection } from "./sections/server.js";
import { pageSection, publicOutputFiles } from "./sections/pages.js";
import { respondSection } from "./sections/respond.js";
import { routeFileSection } from "./sections/route-files.js";
import { webhookSection } from "./sections/webhooks.js";
import { idempotencySection } from "./sections/idempotency.js";
import { identitySection } from "./sections/identity.js";
import { apiOutputs } from "./api-outputs.js";

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
 * model) and `server.js` (the same code with its types removed by TypeScript's
 * `transpileModule`: no type check, one file, no configuration; the analyzer already
 * checked what matters, and it is the transpiler ts-morph already loaded). server.js is
 * compiled from server.ts as written, so what runs is exactly what is reviewed.
 */
export async function generate(model: Model, options: GenerateOptions = {}): Promise<OutputFile[]> {
  const pretty = options.pretty !== false;
  const raw = serverSource(model, options);
  // The formatter thread works on server.ts while this thread makes the API outputs, and
  // on client.ts while this one transpiles server.ts: the outputs add little to a build.
  const formatted = pretty ? format(raw) : Promise.resolve(raw);
  const api = options.apiOutputs === false ? null : apiOutputs(model, pretty);
  const ts_ = await formatted;
  const files: OutputFile[] = [
    { path: "server.ts", contents: ts_ },
    { path: "server.js", contents: transpile(ts_) },
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
  const raw = serverSource(model, options);
  return options.pretty === false ? raw : format(raw);
}

/** server.ts as ts-morph prints it. */
function serverSource(model: Model, options: GenerateOptions): string {
  const names = new Names(model);
  // Name queries and actions first, so their statements are named after them.
  for (const q of model.queries) names.fn(q.module, q.name);
  for (const a of model.actions) names.fn(a.module, a.name);

  const statements: (string | StatementStructures)[] = [];
  for (const r of model.resources) statements.push(...resourceSection(model, r, names));
  for (const t of model.types ?? []) statements.push(...recordTypeSection(model, t, names));
  // Private code no route file calls is never called with a request's input.
  const called = routeFileTargets(model);
  const takesInput = (e: { module: string; name: string; private?: true }) => !e.private || called.has(`${e.module}.${e.name}`);
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
  statements.push(...idempotencySection(model, names));
  statements.push(...identitySection(model, names));
  statements.push(...endpointSection(model, names));
  statements.push(...respondSection(model, names));
  statements.push(...routeFileSection(model, names));
  statements.push(...pageSection(model, names));
  statements.push(...specSection(model, names));

  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Double },
  });
  const file = project.createSourceFile("server.ts", "", { overwrite: true });
  runtimeLoad(file, options.runtimeImport ?? "svc/runtime");
  // A blank line before each section comment keeps the sections apart after formatting.
  file.addStatements(statements.flatMap((s) => (typeof s === "string" && s.startsWith("// ----") ? ["\n", s] : [s])));
  const header = [
    `// Code generated by svc from ${model.name}. DO NOT EDIT.`,
    "// Sources:",
    ...model.sources.map((s) => `//   ${s}`),
    "",
  ].join("\n");
  return header + file.getFullText();
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
