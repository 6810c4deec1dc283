// Mustache templates (docs/language.md §5), parsed once at start by mustache.js and turned into
// a renderer then: each tag becomes a closure that knows its kind and its name, split on dots,
// so a request only looks values up and writes. mustache.js renders from its tokens, making a
// Context and filling a lookup cache per section and per row; for the 50 rows of the task
// tracker's /tasks that was a quarter of the page. The renderer keeps mustache.js's rules
// (tests/pages/templates.test.ts renders the same templates both ways): `{{x}}` is
// HTML-escaped, `{{{x}}}` and `{{&x}}` are raw, a name is looked up from the innermost section
// outwards, a dotted name's first part decides where, and sections repeat over arrays, enter
// objects, strings and numbers, and show once for any other truthy value. Views are JSON (a
// page.jq's output), so mustache's lambdas cannot occur, and partials are refused at build time.
//
// mustache.js makes each text token one character at a time and joins them with `+=`, so a
// text token's value is a rope of one-character strings, walked character by character each
// time it is copied into the output: for /tasks that walk cost more than the rest of the
// rendering (0.84 M instructions of a 2.68 M request). Text is copied into a flat string once,
// at start. The output is gathered as pieces in one array and joined once.
//
// A whole page is rendered in its bytes (renderHtmlBytes): UTF-8, one byte per character
// of a string (what Node's "latin1" encoding writes as they are). A page with one character
// past U+00FF (the task tracker's "—") is otherwise a two-byte string, which Node measures
// and then encodes to UTF-8 character by character (0.48 M instructions of /tasks); in
// bytes, its length is its Content-Length and writing it is a copy. Text tokens are kept in
// both forms; a value is turned into bytes only when it has a character past ASCII.
//
// A page's title is rendered as plain text (not escaped there), because the layout escapes it
// where it writes `{{title}}`; escaping twice would show `&amp;lt;` in the tab.

import Mustache from "mustache";

/** One piece of output: writes to `out` what it shows for the sections entered so far (innermost last). */
type Part = (stack: unknown[], w: Writer, out: string[]) => void;

/** How values are written: `{{x}}` through `escape`, `{{{x}}}` through `raw`; text in bytes or not. */
interface Writer {
  escape: (value: unknown) => string;
  raw: (value: unknown) => string;
  bytes: boolean;
}

export interface Template {
  render: Part;
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

export function parseTemplate(text: string): Template {
  // The compiler checked every template; a failure here is a bug worth a start-up error.
  return { render: sequence(Mustache.parse(text) as Token[]) };
}

/** Renders HTML, escaping `{{x}}`. */
export function renderHtml(t: Template, view: unknown): string {
  return render(t, view, HTML);
}

/** Hot path: renders HTML in its bytes; an HtmlBytes value in the view is written as it is. */
export function renderHtmlBytes(t: Template, view: unknown): HtmlBytes {
  return new HtmlBytes(render(t, view, HTML_BYTES));
}

/** Renders text that will be escaped later, by the template it is written into. */
export function renderText(t: Template, view: unknown): string {
  return render(t, view, TEXT);
}

function render(t: Template, view: unknown, w: Writer): string {
  const out: string[] = [];
  t.render([view], w, out);
  return out.join("");
}

function sequence(tokens: readonly Token[]): Part {
  const parts = tokens.map(part).filter((p): p is Part => p !== null);
  if (parts.length === 0) return () => undefined;
  if (parts.length === 1) return parts[0];
  return (stack, w, out) => {
    for (let i = 0; i < parts.length; i++) parts[i](stack, w, out);
  };
}

function part(token: Token): Part | null {
  const [kind, value] = token;
  switch (kind) {
    case "text": {
      const text = flat(value);
      const bytes = utf8Bytes(text);
      return (_stack, w, out) => void out.push(w.bytes ? bytes : text);
    }
    case "name": {
      const find = lookup(value);
      return (stack, w, out) => {
        const v = find(stack);
        if (v !== undefined && v !== null) out.push(w.escape(v));
      };
    }
    case "&": {
      const find = lookup(value);
      return (stack, w, out) => {
        const v = find(stack);
        if (v !== undefined && v !== null) out.push(w.raw(v));
      };
    }
    case "#":
      return section(lookup(value), sequence(token[4] ?? []));
    case "^":
      return inverted(lookup(value), sequence(token[4] ?? []));
    case ">":
      throw new Error(`partial {{> ${value}}} in a page template: partials are not available`);
    default:
      // Comments ({{! }}) and delimiter changes ({{= =}}) write nothing.
      return null;
  }
}

function section(find: (stack: unknown[]) => unknown, body: Part): Part {
  return (stack, w, out) => {
    const v = find(stack);
    if (!v) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        stack.push(v[i]);
        body(stack, w, out);
        stack.pop();
      }
    } else if (typeof v === "object" || typeof v === "string" || typeof v === "number") {
      stack.push(v);
      body(stack, w, out);
      stack.pop();
    } else {
      body(stack, w, out);
    }
  };
}

function inverted(find: (stack: unknown[]) => unknown, body: Part): Part {
  return (stack, w, out) => {
    const v = find(stack);
    if (!v || (Array.isArray(v) && v.length === 0)) body(stack, w, out);
  };
}

/** How `name` is found (mustache.js's Context.lookup, without its lambdas and cache). */
function lookup(name: string): (stack: unknown[]) => unknown {
  if (name === ".") return (stack) => stack[stack.length - 1];
  if (name.indexOf(".") <= 0) {
    // A plain name is found only on an object that has it (a string's `length` is not).
    return (stack) => {
      for (let i = stack.length - 1; i >= 0; i--) {
        const view = stack[i];
        if (view !== null && typeof view === "object" && name in view) return (view as Record<string, unknown>)[name];
      }
      return undefined;
    };
  }
  const names = name.split(".");
  const last = names.length - 1;
  return (stack) => {
    for (let i = stack.length - 1; i >= 0; i--) {
      let v: unknown = stack[i];
      let hit = false;
      for (let k = 0; v !== null && v !== undefined && k <= last; k++) {
        if (k === last) hit = hasOwn(v, names[k]);
        v = (v as Record<string, unknown>)[names[k]];
      }
      if (hit) return v;
    }
    return undefined;
  };
}

const NOT_ASCII = /[^\x00-\x7f]/;

/** `text` in UTF-8 bytes, one per character; ASCII is its own bytes. */
function utf8Bytes(text: string): string {
  return NOT_ASCII.test(text) ? Buffer.from(text, "utf8").toString("latin1") : text;
}

/** `text` as one flat string (Buffer's decoder always makes a new, sequential one). */
function flat(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/** mustache.js's test for the last part of a dotted name: `in` on objects, own properties on primitives. */
function hasOwn(v: unknown, key: string): boolean {
  if (typeof v === "object") return key in (v as object);
  return Object.prototype.hasOwnProperty.call(v, key);
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
