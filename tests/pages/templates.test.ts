// Page templates are rendered by functions compiled at start (runtime/pages/templates.ts and
// template-code.ts), not by mustache.js's token walker; what they write must be exactly what
// mustache.js writes. Every template of the examples and fixtures, and a set written to reach
// the corners of the rules (lookup through sections, dotted names, primitives, empty and false
// sections), is rendered both ways over the same views.

import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "../support/jest.js";
import Mustache from "mustache";
import { HtmlBytes, parseTemplate, renderHtml, renderHtmlBytes, renderText } from "../../runtime/pages/templates.js";
import { repoRoot } from "../support/paths.js";

function mustacheHtml(text: string, view: unknown): string {
  return new Mustache.Writer().render(text, view);
}

function mustacheText(text: string, view: unknown): string {
  return new Mustache.Writer().render(text, view, undefined, { escape: (v: unknown) => String(v) });
}

const CORNERS = [
  "{{x}}|{{{x}}}|{{&x}}",
  "{{#list}}[{{.}}]{{/list}}{{^list}}none{{/list}}",
  "{{#list}}{{name}}:{{outer}};{{/list}}",
  "{{#obj}}{{a}}-{{b.c}}-{{outer}}{{/obj}}",
  "{{a.b.c}}|{{a.b}}|{{a.x.y}}|{{missing.path}}",
  "{{#str}}{{length}}|{{.}}|{{str.length}}{{/str}}",
  "{{#num}}{{.}}{{/num}}{{#zero}}zero{{/zero}}{{^zero}}no zero{{/zero}}",
  "{{#yes}}yes:{{outer}}{{/yes}}{{#no}}no{{/no}}{{^no}}not no{{/no}}",
  "{{#empty}}x{{/empty}}{{^empty}}empty{{/empty}}{{#nul}}x{{/nul}}{{^nul}}null{{/nul}}",
  "{{#list}}{{#inner}}{{v}}{{name}}{{outer}}{{/inner}}{{/list}}",
  "{{! a comment }}a{{=<% %>=}}<% x %><%={{ }}=%>{{x}}",
  "{{arr}}|{{obj}}|{{yes}}|{{no}}|{{nul}}|{{num}}",
  "{{#obj}}{{#b}}{{c}}{{/b}}{{/obj}}",
  "{{list.length}}|{{list.0.name}}|{{#list.0}}{{name}}{{/list.0}}",
  "{{.}}",
  "<a href=\"/x/{{id}}\" title='{{t}}'>{{t}}</a>",
];

const VIEWS: unknown[] = [
  {
    x: "<b>&</b> 'q' \"d\" `b` a=b /s",
    list: [{ name: "one", inner: [{ v: 1 }, { v: 2, name: "shadow" }] }, { name: "t<w>o" }],
    outer: "O",
    obj: { a: "A", b: { c: "C&" } },
    a: { b: { c: 3 } },
    str: "text",
    num: 42,
    zero: 0,
    yes: true,
    no: false,
    empty: [],
    nul: null,
    arr: [1, "two", 3],
    id: "01J",
    t: "it's <here>",
  },
  { list: ["a", "<b>", 3, null, true], x: 7, str: "", num: -1.5, a: { b: "s" }, outer: null },
  {},
  "just a string",
  [1, 2],
];

function templatesUnder(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "dist" && entry.name !== "expected") templatesUnder(path, found);
    } else if (entry.name.endsWith(".html") && /[/\\]app[/\\]/.test(path)) found.push(path);
  }
  return found;
}

function parses(text: string): boolean {
  try {
    Mustache.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A page's template without its front matter, as the compiler hands it over. */
function body(text: string): string {
  const m = /^---\n[\s\S]*?\n---\n?/.exec(text);
  return m === null ? text : text.slice(m[0].length);
}

/**
 * mustache.js's answer, or null where it throws: it reads names off a null list item as if it
 * were an object (`null.name`), a TypeError that made the page a 500; the renderer finds
 * nothing there and writes nothing instead.
 */
function expected(render: () => string): string | null {
  try {
    return render();
  } catch (err) {
    if (err instanceof TypeError) return null;
    throw err;
  }
}

function same(label: string, ours: string, theirs: string | null): void {
  if (theirs === null) expect(typeof ours).toBe("string");
  else expect([label, ours]).toEqual([label, theirs]);
}

describe("compiled templates render what mustache.js renders", () => {
  test("the corners of the rules, as HTML and as text", () => {
    for (const text of CORNERS) {
      const t = parseTemplate(text);
      for (const view of VIEWS) {
        same(text, renderHtml(t, view), expected(() => mustacheHtml(text, view)));
        same(text, renderText(t, view), expected(() => mustacheText(text, view)));
      }
    }
  });

  test("names and text that would be code in the compiled function stay names and text", () => {
    // Each piece closes a string or template literal, a comment or a script and then runs code
    // if pasted into the function's source as it is, rather than as a JSON literal.
    const text =
      'a`${globalThis.svcPwned = 1}`\\"\'*/</script>\u2028|{{q"); svcPwned = 2; ("}}|' +
      '{{&c\\d}}|{{#e`f}}[{{.}}]{{/e`f}}|{{g"h.i\'j}}|{{^n"]}}none{{/n"]}}';
    const view = { 'q"); svcPwned = 2; ("': '<"q">', "c\\d": "<raw>", "e`f": ["1", "2"], 'g"h': { "i'j": "dot" } };
    const t = parseTemplate(text);
    for (const v of [view, {}]) {
      same(text, renderHtml(t, v), expected(() => mustacheHtml(text, v)));
      same(text, renderText(t, v), expected(() => mustacheText(text, v)));
    }
    expect(renderHtml(t, view)).toContain("|&lt;&quot;q&quot;&gt;|<raw>|[1][2]|dot|none");
    expect((globalThis as { svcPwned?: unknown }).svcPwned).toBeUndefined();
  });

  test("a null item of a list renders its names empty (mustache.js threw)", () => {
    const t = parseTemplate("{{#list}}[{{name}}]{{/list}}");
    expect(renderHtml(t, { list: [{ name: "a" }, null, { name: "b" }] })).toBe("[a][][b]");
  });

  const files = [...templatesUnder(join(repoRoot, "examples")), ...templatesUnder(join(repoRoot, "fixtures"))];

  test("every page template of the examples and fixtures", () => {
    expect(files.filter((file) => parses(body(readFileSync(file, "utf8")))).length).toBeGreaterThan(5);
    const views = [
      ...VIEWS,
      {
        title: "T & <t>",
        content: "<p>c</p>",
        records: [
          { id: "a", title: "<x>", status: "open", priority: "high", assignee: null, created_at: "2026-01-01" },
          { id: "b", title: "y", status: "done", priority: "low", assignee: "ann", created_at: "2026-01-02" },
        ],
        form: { title: "f'" },
        error: "bad",
        auth: { subject: "u1" },
        article: { title: "A", tagList: ["x", "y"], author: { username: "n" } },
      },
    ];
    for (const file of files) {
      const text = body(readFileSync(file, "utf8"));
      // A partial (SVC6026) or a syntax error (SVC6025) is a build error: such a template,
      // kept in a fixture for its diagnostic, never reaches a server.
      if (text.includes("{{>") || !parses(text)) continue;
      const t = parseTemplate(text);
      for (const view of views) {
        same(file, renderHtml(t, view), expected(() => mustacheHtml(text, view)));
        expect([file, renderHtmlBytes(t, view).bytes]).toEqual([file, bytesOf(renderHtml(t, view))]);
      }
    }
  });
});

describe("where Node makes no code from text", () => {
  test("a template stops the start with a message naming the flag, not an EvalError's stack", () => {
    const templates = pathToFileURL(join(repoRoot, "build", "runtime", "pages", "templates.js")).href;
    const script = `import(${JSON.stringify(templates)}).then((t) => t.parseTemplate("<p>{{x}}</p>")).then(
      () => console.log("made"),
      (e) => console.log(e.name + ": " + e.message),
    );`;
    const r = spawnSync(process.execPath, ["--disallow-code-generation-from-strings", "-e", script], { encoding: "utf8" });
    expect(r.stdout.trim()).toBe(
      "StartupError: pages are rendered by functions made at start, and this Node refuses to make code from text " +
        "(--disallow-code-generation-from-strings); run the server without that flag",
    );
  });
});

/** What the bytes form must be: the UTF-8 of the text, one byte per character. */
function bytesOf(text: string): string {
  return Buffer.from(text, "utf8").toString("latin1");
}

describe("HTML in its bytes (what a page writes)", () => {
  test("is the UTF-8 of the HTML, text and values past ASCII included; its length is the byte count", () => {
    const t = parseTemplate("<p>— {{a}} · {{{b}}} {{#list}}[{{.}}]{{/list}}</p>");
    const view = { a: "ünïcode <&> 😀", b: "<i>日本</i>", list: ["x", "€", 3] };
    const html = renderHtmlBytes(t, view);
    expect(html.bytes).toBe(bytesOf(renderHtml(t, view)));
    expect(html.length).toBe(Buffer.byteLength(renderHtml(t, view)));
    expect(html.toString()).toBe(renderHtml(t, view));
    expect(html.toString()).toBe("<p>— ünïcode &lt;&amp;&gt; 😀 · <i>日本</i> [x][€][3]</p>");
  });

  test("a page's content in bytes goes into the layout once, never encoded twice", () => {
    const content = renderHtmlBytes(parseTemplate("<p>{{x}}</p>"), { x: "é — 😀" });
    const layout = parseTemplate("<main>{{{content}}}</main><pre>{{content}}</pre><h1>{{title}}</h1>");
    const page = renderHtmlBytes(layout, { content, title: "Café <b>" });
    expect(page.toString()).toBe("<main><p>é — 😀</p></main><pre>&lt;p&gt;é — 😀&lt;&#x2F;p&gt;</pre><h1>Café &lt;b&gt;</h1>");
    // Rendered as text, the same layout shows the same characters.
    expect(renderHtml(layout, { content, title: "Café <b>" })).toBe(page.toString());
    expect(content).toBeInstanceOf(HtmlBytes);
  });
});
