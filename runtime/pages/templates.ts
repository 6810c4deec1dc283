// Mustache templates (docs/language.md §5), parsed once at start by mustache.js and compiled
// then into one JavaScript function each (template-code.ts writes its source), so a request
// only runs that function. mustache.js renders from its tokens, making a Context and filling a
// lookup cache per section and per row; closures per tag (the renderer before this one) shared
// one lookup among every name and went megamorphic. The renderer keeps mustache.js's rules
// (tests/pages/templates.test.ts renders the same templates both ways): `{{x}}` is
// HTML-escaped, `{{{x}}}` and `{{&x}}` are raw, a name is looked up from the innermost section
// outwards, a dotted name's first part decides where, and sections repeat over arrays, enter
// objects, strings and numbers, and show once for any other truthy value. Views are JSON (a
// page.jq's output), so mustache's lambdas cannot occur, and partials are refused at build time.
//
// A whole page is rendered in its bytes (renderHtmlBytes): UTF-8, one byte per character
// of a string (what Node's "latin1" encoding writes as they are). A page with one character
// past U+00FF (the task tracker's "—") is otherwise a two-byte string, which Node measures
// and then encodes to UTF-8 character by character (0.48 M instructions of /tasks); in
// bytes, its length is its Content-Length and writing it is a copy. Text is kept in both
// forms; a value is turned into bytes only when it has a character past ASCII.
//
// A page's title is rendered as plain text (not escaped there), because the layout escapes it
// where it writes `{{title}}`; escaping twice would show `&amp;lt;` in the tab.

import Mustache from "mustache";
import { StartupError } from "../core/errors.js";
import { templateCode } from "./template-code.js";
import { utf8Bytes } from "./utf8.js";

/** How values are written: `{{x}}` through `escape`, `{{{x}}}` through `raw`; text in bytes or not. */
interface Writer {
  escape: (value: unknown) => string;
  raw: (value: unknown) => string;
  bytes: boolean;
}

export interface Template {
  render: (view: unknown, w: Writer) => string;
}

/** An HTML document as its UTF-8 bytes, one per character: write it with the "latin1" encoding. */
export class HtmlBytes {
  constructor(readonly bytes: string) {}

  /** Its byte count, the Content-Length. */
  get length(): number {
    return this.bytes.length;
  }

  /** As text, for tests and logs. */
  toString(): string {
    return Buffer.from(this.bytes, "latin1").toString("utf8");
  }
}

const HTML: Writer = { escape: escapeHtml, raw: String, bytes: false };
const TEXT: Writer = { escape: String, raw: String, bytes: false };
const HTML_BYTES: Writer = {
  // HTML already in bytes (a page's content in the layout) is escaped as it is: the escaped
  // characters are ASCII, and no byte of a longer UTF-8 sequence is.
  escape: (v) => (v instanceof HtmlBytes ? escapeHtml(v.bytes) : escapeHtmlBytes(v)),
  raw: (v) => (v instanceof HtmlBytes ? v.bytes : utf8Bytes(String(v))),
  bytes: true,
};

type Token = [string, string, number, number, Token[]?, number?];

const MISS = Symbol("miss");
const HELPERS = { isObject, walk, MISS };

export function parseTemplate(text: string): Template {
  // The compiler checked every template; a failure here is a bug worth a start-up error.
  const code = templateCode(Mustache.parse(text) as Token[]);
  // The source names only its arguments and HELPERS; its text and names are JSON literals.
  const source = `${code.prelude}\nreturn function render(c0, w) {\n${code.body}};`;
  let make: (helpers: typeof HELPERS) => Template["render"];
  try {
    make = new Function("rt", source) as typeof make;
  } catch (err) {
    if (!(err instanceof EvalError)) throw err;
    throw new StartupError(
      "SVC_ERR_TEMPLATE",
      "pages are rendered by functions made at start, and this Node refuses to make code from text " +
        "(--disallow-code-generation-from-strings); run the server without that flag",
    );
  }
  return { render: make(HELPERS) };
}

/** Renders HTML, escaping `{{x}}`. */
export function renderHtml(t: Template, view: unknown): string {
  return t.render(view, HTML);
}

/** Hot path: renders HTML in its bytes; an HtmlBytes value in the view is written as it is. */
export function renderHtmlBytes(t: Template, view: unknown): HtmlBytes {
  return new HtmlBytes(t.render(view, HTML_BYTES));
}

/** Renders text that will be escaped later, by the template it is written into. */
export function renderText(t: Template, view: unknown): string {
  return t.render(view, TEXT);
}

function isObject(v: unknown): v is object {
  return v !== null && typeof v === "object";
}

/**
 * A dotted name's value from one context, or MISS: the path is followed while there is a value,
 * and its last part must be there (`in` on objects, own properties on primitives).
 */
function walk(c: unknown, names: readonly string[]): unknown {
  const last = names.length - 1;
  let v = c;
  let hit = false;
  for (let k = 0; v !== null && v !== undefined && k <= last; k++) {
    if (k === last) hit = typeof v === "object" ? names[k] in (v as object) : Object.prototype.hasOwnProperty.call(v, names[k]);
    v = (v as Record<string, unknown>)[names[k]];
  }
  return hit ? v : MISS;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "/": "&#x2F;",
  "`": "&#x60;",
  "=": "&#x3D;",
};

const NEEDS_ESCAPE = /[&<>"'`=/]/;
const ESCAPED = /[&<>"'`=/]/g;

const ESCAPE_OR_NOT_ASCII = /[&<>"'`=/\u0080-\uffff]/;

/** escapeHtml, then in bytes; one test finds the values (most) that need neither. */
function escapeHtmlBytes(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  return ESCAPE_OR_NOT_ASCII.test(text) ? utf8Bytes(escapeHtml(text)) : text;
}

/** mustache.js's escape; most values need none, and a test is cheaper than a replace. */
function escapeHtml(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, (c) => ESCAPES[c]) : text;
}
