// Mustache templates checked at build time with the parser the server runs (mustache.js),
// so a broken page is a diagnostic pointing into page.html rather than a 500 at run time.

import Mustache from "mustache";
import { appCodes as codes } from "../../diagnostics/codes/app.js";
import type { PositionMap } from "../../parse/positions.js";
import type { Reporter } from "../shared/context.js";

type Token = [string, string, number, number, Token[]?, ...unknown[]];

/**
 * Parses `template`, which starts at `offset` in `file`. Returns the names written raw
 * (`{{{x}}}` or `{{& x}}`) outside any section, or null after reporting a syntax error.
 */
export function checkTemplate(file: string, template: string, offset: number, positions: PositionMap, r: Reporter): Set<string> | null {
  let tokens: Token[];
  try {
    // A fresh writer: the build must not grow mustache's global template cache.
    tokens = new Mustache.Writer().parse(template) as Token[];
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /\bat (\d+)$/.exec(message);
    let local = at ? Number(at[1]) : 0;
    // Mustache reports an unclosed section at the end of the text; the opening tag is what to fix.
    const unclosed = /^Unclosed section "([^"]*)"/.exec(message);
    if (unclosed) local = openingTag(template, unclosed[1], local) ?? local;
    const problem = message.replace(/ at \d+$/, "");
    r.add(codes.templateSyntax.at(file, positions.span(offset + local, offset + local + 1), lowerFirst(problem)));
    return null;
  }
  const raw = new Set<string>();
  walk(tokens, 0, (t, depth) => {
    if (t[0] === ">") r.add(codes.templatePartial.at(file, positions.span(offset + t[2], offset + t[3]), t[1]));
    if (t[0] === "&" && depth === 0) raw.add(t[1]);
  });
  return raw;
}

function walk(tokens: Token[], depth: number, visit: (t: Token, depth: number) => void): void {
  for (const t of tokens) {
    visit(t, depth);
    const children = t[4];
    if ((t[0] === "#" || t[0] === "^") && Array.isArray(children)) walk(children, depth + 1, visit);
  }
}

/** Offset of the last `{{#name}}` or `{{^name}}` before `before`; null when it cannot be found. */
function openingTag(template: string, name: string, before: number): number | null {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`\\{\\{\\s*[#^]\\s*${escaped}\\s*\\}\\}`, "g");
  let found: number | null = null;
  for (let m = re.exec(template); m !== null && m.index < before; m = re.exec(template)) found = m.index;
  return found;
}

function lowerFirst(s: string): string {
  return s.length > 0 ? s[0].toLowerCase() + s.slice(1) : s;
}
