import type { Model, RouteEntryModel } from "../../analyze/model/model.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { limitsField } from "./limits.js";
import { pageName, routeFileName } from "./pages.js";
import { respondFunctionName } from "./respond.js";
import { streamConstName } from "./stream.js";

// The spec's `routes`: the model's route table (compiler/analyze/route-table.ts) printed entry
// by entry, in its order. Which entries exist and in what order is decided there, not here.

/** One `rt.RouteSpec` literal per entry of `model.routeTable`. */
export function routeTableEntries(model: Model, names: Names): string[] {
  const routes = new Map(model.routes.map((r) => [r.source, r]));
  const files = new Map((model.app?.routeFiles ?? []).map((f) => [f.source, f]));
  const pages = new Map((model.app?.pages ?? []).map((p) => [p.source, p]));
  const entry = (e: RouteEntryModel, target: string) => {
    const split = e.segments ? `, segments: ${literal(e.segments)}` : "";
    return `{ method: ${JSON.stringify(e.method)}, path: ${JSON.stringify(e.path)}${split}, target: ${target} }`;
  };
  let lastModule: string | null = null;
  return model.routeTable.map((e) => {
    const t = e.target;
    switch (t.kind) {
      case "webhook":
        return entry(e, `{ kind: "webhook", name: ${JSON.stringify(`${t.module}.${t.name}`)} }`);
      case "endpoint":
        return entry(e, `{ kind: "endpoint", endpoint: ${names.endpoint(t.target.module, t.target.name)} }`);
      case "route": {
        const r = known(routes, t.source);
        const respond = r.respond ? `, respond: ${respondFunctionName(names, r)}` : "";
        const stream = r.respond?.stream ? `, stream: ${streamConstName(names, r)}` : "";
        // Named by module, not by line: a line number would change with every edit above it.
        const header = r.module === lastModule ? "" : `// routes of module ${r.module}, as declared\n`;
        lastModule = r.module;
        return `${header}${entry(e, `{ kind: "endpoint", endpoint: ${names.endpoint(r.target.module, r.target.name)}${respond}${stream}${limitsField(r.limits)} }`)}`;
      }
      case "file":
        return entry(e, `{ kind: "file", file: ${routeFileName(names, known(files, t.source))} }`);
      case "page":
        return entry(e, `{ kind: "page", page: ${pageName(names, known(pages, t.source))} }`);
      case "asset":
        return entry(e, `{ kind: "asset" }`);
    }
  });
}

function known<T>(bySource: ReadonlyMap<string, T>, source: string): T {
  const found = bySource.get(source);
  // The analyzer builds the table from these very parts.
  if (found === undefined) throw new Error(`route table entry ${source} is not in the model`);
  return found;
}
