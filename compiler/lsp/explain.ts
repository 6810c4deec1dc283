// The words hover shows that are written once elsewhere: what a diagnostic's code means
// (the catalog docs/diagnostics.md is generated from) and what a built-in function takes
// and gives (the tables of docs/language.md and docs/auth.md, the spec of record). The
// docs are read once, when first asked for.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BUILTINS } from "./analyzed.js";
import { catalog } from "../diagnostics/catalog.js";

export interface BuiltinDoc {
  /** `substr(s, start[, count])`, each way it is written in the docs. */
  signatures: string[];
  doc: string;
}

let builtinDocs: Map<string, BuiltinDoc> | null = null;

/** A built-in's signatures and what it gives; from its arity alone when the docs are not beside the compiler. */
export function builtinDoc(name: string): BuiltinDoc | null {
  if (!Object.prototype.hasOwnProperty.call(BUILTINS, name)) return null;
  builtinDocs ??= readBuiltinDocs();
  const found = builtinDocs.get(name);
  if (found) return found;
  const [min, max] = BUILTINS[name as keyof typeof BUILTINS].arity;
  return { signatures: [`${name}(${min === max ? min : `${min}–${max}`} argument${max === 1 ? "" : "s"})`], doc: "" };
}

/** The names of the built-in functions, sorted. */
export function builtinNames(): string[] {
  return Object.keys(BUILTINS).sort();
}

function readBuiltinDocs(): Map<string, BuiltinDoc> {
  const out = new Map<string, BuiltinDoc>();
  for (const doc of ["language.md", "auth.md"]) {
    let text: string;
    try {
      text = readFileSync(fileURLToPath(new URL(`../../../docs/${doc}`, import.meta.url)), "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) {
      if (!line.startsWith("| `")) continue;
      const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
      const signatures = [...cells[1].matchAll(/`([a-z_]+)\(([^`]*)\)`/g)];
      for (const m of signatures) {
        if (!Object.prototype.hasOwnProperty.call(BUILTINS, m[1])) continue;
        const entry = out.get(m[1]) ?? { signatures: [], doc: "" };
        entry.signatures.push(`${m[1]}(${m[2]})`);
        entry.doc = entry.doc ? `${entry.doc}\n\n${cells[cells.length - 2]}` : cells[cells.length - 2];
        out.set(m[1], entry);
      }
    }
  }
  return out;
}

/** What a code means, as docs/diagnostics.md lists it: its group, its severity and its one sentence. */
export function explainCode(code: string): string | null {
  for (const group of catalog) {
    for (const def of Object.values(group.codes)) {
      if (def.code === code) return `**${code}** (${def.severity}, ${group.title}): ${def.summary}`;
    }
  }
  return null;
}
