// Route files, pages, the layout and public/ (docs/language.md §4–5) as plain data the runtime
// serves: each route file's blocks, templates as readable literals, each page's data source
// as a reference to its route file's GET block, page.jq as the JavaScript function it was
// compiled to, and the app spec with the layout and public/. The route table
// (sections/server.ts) says where each of them answers.

import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { Model, PageModel, PublicFileModel, RouteFileModel } from "../../analyze/model/model.js";
import { camelCase } from "../../analyze/shared/names.js";
import { readTemplate } from "../../templates.js";
import { emitJq } from "../jq/program.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { blockFunctionName } from "./route-files.js";
import { limitsField } from "./limits.js";
import { fileParams } from "../../analyze/config/uploads.js";

type Out = (string | StatementStructures)[];

export function pageName(names: Names, page: PageModel): string {
  const words = page.segments.length === 0 ? ["root"] : page.segments.map((s) => s.replace(/^:/, ""));
  const base = camelCase([...words, "page"].join("_").replace(/[^A-Za-z0-9_]/g, "_"));
  return names.app(`page:${page.source}`, /^[0-9]/.test(base) ? `p${base}` : base);
}

/** The name of the app spec constant, when the model has an app. */
export function appSpecName(model: Model, names: Names): string | null {
  return model.app ? names.app("spec", "app") : null;
}

/** The name of a route file's constant: `apiNotesIdRoute`. */
export function routeFileName(names: Names, file: RouteFileModel): string {
  const words = file.segments.length === 0 ? ["root"] : file.segments.map((s) => s.replace(/^:/, ""));
  const base = camelCase([...words, "route"].join("_").replace(/[^A-Za-z0-9_]/g, "_"));
  return names.app(`route:${file.source}`, /^[0-9]/.test(base) ? `r${base}` : base);
}

/** One constant per route file and per page, then the app spec. Empty without an app. */
export function pageSection(model: Model, names: Names): Out {
  const app = model.app;
  if (!app) return [];
  const out: Out = [];
  if (app.routeFiles.length > 0) out.push("// ---- route files ----");
  for (const file of app.routeFiles) out.push(routeFileConst(file, names, model));
  if (app.pages.length > 0) out.push("// ---- pages ----");
  for (const page of app.pages) out.push(pageConst(page, app.routeFiles, names));

  out.push("// ---- app: layout, error page and public/ ----");
  const fields = [
    `layout: ${app.layout ? `${literal(app.layout.template)} /* ${app.layout.source} */` : `${literal(readTemplate("pages/layout.html"))} /* svc's default layout */`}`,
    `errorPage: ${literal(readTemplate("pages/error.html"))} /* svc's error page, inside the layout */`,
    `publicFiles: [\n${app.publicFiles.map(publicFile).join(",\n")}\n]`,
    "// public/ files are read once at start, from beside this module, where svc build writes them.\npublicRoot: import.meta.url",
  ];
  out.push({
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: appSpecName(model, names)!, type: "rt.AppSpec", initializer: `{\n${fields.join(",\n")}\n}` }],
  });
  return out;
}

/** `, files: new Set([…])`: the body fields a block passes to its action's `file` arguments (runtime/uploads). */
function blockFiles(b: RouteFileModel["blocks"][number], model: Model): string {
  if (b.step?.op !== "invoke") return "";
  const target = b.step.target;
  const action = model.actions.find((a) => a.module === target.module && a.name === target.name);
  const takes = new Set(action === undefined ? [] : fileParams(action));
  const fields = b.step.args.flatMap((a) => (takes.has(a.name) && a.value.kind === "input" && a.value.from === "body" ? [a.value.name] : []));
  return fields.length === 0 ? "" : `, files: new Set(${literal(fields)})`;
}

function routeFileConst(file: RouteFileModel, names: Names, model: Model): StatementStructures {
  const blocks = file.blocks.map((b) => {
    const requires = b.step?.op === "invoke" ? b.step.requires : null;
    const noStore = b.step?.op === "invoke" && b.step.issuesCredentials === true;
    const credentials = b.step?.op === "invoke" && b.step.credentials === true;
    const extra = `${requires === null ? "" : `, requires: ${literal(requires)}`}${credentials ? ", credentials: true" : ""}${b.respond ? ", shaped: true" : ""}${noStore ? ", noStore: true" : ""}${limitsField(b.limits)}${blockFiles(b, model)}`;
    return `{ method: ${JSON.stringify(b.method)}, handler: ${literal(b.handler)}, run: ${blockFunctionName(names, file, b)}${extra} }`;
  });
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    leadingTrivia: `// ${file.source}\n`,
    declarations: [
      {
        name: routeFileName(names, file),
        type: "rt.RouteFileSpec",
        initializer: `{\npath: ${JSON.stringify(file.path)},\nblocks: [\n${blocks.join(",\n")}\n]\n}`,
      },
    ],
  };
}

function pageConst(page: PageModel, routeFiles: readonly RouteFileModel[], names: Names): StatementStructures {
  let data = "null";
  if (page.route) {
    const file = routeFiles.find((f) => f.source === page.route!.source)!;
    const block = file.blocks.find((b) => b.method === "GET" && b.handler === null)!;
    data = blockFunctionName(names, file, block);
  }
  const loader = page.loader;
  const fields = [
    `path: ${JSON.stringify(page.path)}`,
    `source: ${JSON.stringify(page.source)}`,
    `title: ${literal(page.title)}`,
    `template: ${literal(page.template)}`,
    `data: ${data}${page.route ? ` /* GET ${page.route.path} */` : ""}`,
    `load: ${loader?.kind === "compiled" ? `// ${loader.source}\n${emitJq(loader.plan)}` : "null"}`,
    `jq: ${loader?.kind === "jq" ? `${literal(loader.program)} /* ${loader.source}, run by jq-web: ${loader.reason.replace(/\*\//g, "* /")} */` : "null"}`,
  ];
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: pageName(names, page), type: "rt.PageSpec", initializer: `{\n${fields.join(",\n")}\n}` }],
  };
}

function publicFile(f: PublicFileModel): string {
  return `{ path: ${JSON.stringify(f.path)}, file: ${JSON.stringify(publicFilePath(f))}, contentType: ${JSON.stringify(f.contentType)} }`;
}

/** Where the generator writes a public/ file in the output folder, relative to server.js. */
export function publicFilePath(f: PublicFileModel): string {
  return `public${f.path}`;
}

/** The public/ files as output files, with their bytes as read at build time. */
export function publicOutputFiles(model: Model): { path: string; contents: Buffer }[] {
  return (model.app?.publicFiles ?? []).map((f) => ({
    path: publicFilePath(f),
    contents: Buffer.from(f.body, f.encoding === "utf8" ? "utf8" : "base64"),
  }));
}

