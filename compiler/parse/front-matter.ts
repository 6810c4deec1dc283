// The front matter of page.html (docs/language.md §5): `---`, lines of `key: value`, `---`, at the
// very top of the file. A deliberately small subset of YAML: one line per key, a value
// either bare or in quotes, `#` comment lines. Known keys: `title` and `route`.

import { appCodes as codes } from "../diagnostics/codes/app.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Span } from "./ast.js";
import { PositionMap } from "./positions.js";
import { closest } from "../diagnostics/did-you-mean.js";

export interface FrontValue {
  value: string;
  /** The value as written, quotes included. */
  span: Span;
  /** Offset in the file where the value's text begins (after an opening quote). */
  contentOffset: number;
}

export interface FrontMatter {
  title: FrontValue | null;
  route: FrontValue | null;
  /** Offset in the file where the template begins (0 without front matter). */
  bodyOffset: number;
}

const KEYS = ["title", "route"] as const;
const FENCE = /^---[ \t]*\r?$/;
const LINE = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(.*)$/;

/** Parses the front matter of page.html; without one, the whole file is the template. */
export function parseFrontMatter(file: string, text: string): { ast: FrontMatter; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  return { ast: readFrontMatter(file, text, new PositionMap(text), diagnostics), diagnostics };
}

function readFrontMatter(file: string, text: string, positions: PositionMap, r: Diagnostic[]): FrontMatter {
  const out: FrontMatter = { title: null, route: null, bodyOffset: 0 };
  const start = text.startsWith("\uFEFF") ? 1 : 0;
  const firstEnd = lineEnd(text, start);
  if (!FENCE.test(text.slice(start, firstEnd))) return out;

  // Problems of single lines count only once the closing fence shows they are front matter.
  const lines: Diagnostic[] = [];
  let offset = firstEnd + 1;
  while (offset <= text.length) {
    const end = lineEnd(text, offset);
    const line = text.slice(offset, end).replace(/\r$/, "");
    if (FENCE.test(line)) {
      r.push(...lines);
      out.bodyOffset = Math.min(text.length, end + 1);
      return out;
    }
    const trimmed = line.trim();
    if (trimmed !== "" && !trimmed.startsWith("#")) readLine(line, offset, out, file, positions, lines);
    if (end >= text.length) break;
    offset = end + 1;
  }
  r.push(codes.frontMatter.at(file, positions.span(start, firstEnd), "the front matter starting here has no closing `---`"));
  // The rest is unreadable as a template: treat all of it as front matter.
  out.bodyOffset = text.length;
  return out;
}

function readLine(line: string, offset: number, out: FrontMatter, file: string, positions: PositionMap, r: Diagnostic[]): void {
  const span = positions.span(offset, offset + line.length);
  const m = LINE.exec(line);
  if (!m) {
    r.push(codes.frontMatter.at(file, span, "expected `key: value`"));
    return;
  }
  const key = m[1];
  const keySpan = positions.span(offset, offset + key.length);
  if (!(KEYS as readonly string[]).includes(key)) {
    r.push(codes.frontMatterKey.at(file, keySpan, key, false, closest(key, KEYS)));
    return;
  }
  const k = key as (typeof KEYS)[number];
  if (out[k] !== null) {
    r.push(codes.frontMatterKey.at(file, keySpan, key, true, null));
    return;
  }
  const raw = m[2].trim();
  const valueStart = offset + line.indexOf(raw, m[1].length + 1);
  const value = unquote(raw);
  if (value === null) {
    r.push(codes.frontMatter.at(file, positions.span(valueStart, valueStart + raw.length), "this quoted value is not closed"));
    return;
  }
  const quoted = raw.startsWith('"') || raw.startsWith("'");
  out[k] = { value, span: positions.span(valueStart, valueStart + raw.length), contentOffset: valueStart + (quoted ? 1 : 0) };
}

/** `"a \"b\""` and `'a ''b'''` as YAML reads them; a bare value as it is. Null for an unclosed quote. */
function unquote(raw: string): string | null {
  const q = raw[0];
  if (q !== '"' && q !== "'") return raw;
  if (raw.length < 2 || raw[raw.length - 1] !== q) return null;
  const inner = raw.slice(1, -1);
  if (q === "'") return inner.replaceAll("''", "'");
  return inner.replace(/\\(["\\nt])/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf("\n", from);
  return nl === -1 ? text.length : nl;
}
