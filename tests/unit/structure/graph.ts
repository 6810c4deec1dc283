// The import graph of the TypeScript sources, and the check of it against rules written as
// data (rules.ts). A scan of specifiers is enough: the tree uses relative `.js` specifiers
// for its own files (NodeNext), so each one names the file it imports.

import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";

/** One edge: `from` imports `to`, both paths from the repository root with a `.ts` extension. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** `from` files (glob) may not import `mayNotImport` files (glob), apart from `except` (glob); `why` is what a failure says. */
export interface ImportRule {
  from: string;
  mayNotImport: string;
  except?: string;
  why: string;
}

export interface Violation {
  edge: ImportEdge;
  rule: ImportRule;
}

/** Specifiers of `import … from`, `export … from`, `import "…"` and `import("…")`. */
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

/** The specifiers in `text`, comments left out (they quote code that is not imported). */
export function specifiersOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(SPECIFIER)].map((m) => m[1]);
}

/**
 * The file a specifier of `from` names: a relative one resolved, `svc/runtime` as the
 * runtime's index; null for a package (node:…, a dependency), which no rule is about.
 */
export function resolveSpecifier(from: string, specifier: string): string | null {
  if (specifier === "svc/runtime") return "runtime/index.ts";
  if (!specifier.startsWith(".")) return null;
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  return target.replace(/\.js$/, ".ts");
}

/** Every edge among the `.ts` files under `folders` of `root`. */
export function importGraph(root: string, folders: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const folder of folders) {
    const files = readdirSync(join(root, folder), { recursive: true, encoding: "utf8" }).filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"));
    for (const file of files) {
      const from = posix.join(folder, file.split("\\").join("/"));
      for (const specifier of specifiersOf(readFileSync(join(root, from), "utf8"))) {
        const to = resolveSpecifier(from, specifier);
        if (to !== null) edges.push({ from, to });
      }
    }
  }
  return edges;
}

/** A glob as a regular expression: `**` any path, `*` any name part, `{a,b}` either. */
export function globRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      // `a/**/b` matches a/b too; a trailing `**` matches everything below.
      if (glob[i + 2] === "/") {
        source += "(?:.*/)?";
        i += 2;
      } else {
        source += ".*";
        i += 1;
      }
    } else if (c === "*") source += "[^/]*";
    else if (c === "{") source += "(?:";
    else if (c === "}") source += ")";
    else if (c === ",") source += "|";
    else source += c.replace(/[.+?^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** The edges that break a rule, each with the first rule it breaks. */
export function violations(edges: readonly ImportEdge[], rules: readonly ImportRule[]): Violation[] {
  const compiled = rules.map((rule) => ({
    rule,
    from: globRegExp(rule.from),
    to: globRegExp(rule.mayNotImport),
    except: rule.except === undefined ? null : globRegExp(rule.except),
  }));
  const found: Violation[] = [];
  for (const edge of edges) {
    const broken = compiled.find((r) => r.from.test(edge.from) && r.to.test(edge.to) && !(r.except?.test(edge.to) ?? false));
    if (broken !== undefined) found.push({ edge, rule: broken.rule });
  }
  return found;
}

/** A violation as one line a reader can act on. */
export function describe(v: Violation): string {
  return `${v.edge.from} imports ${v.edge.to}: ${v.rule.why}`;
}
