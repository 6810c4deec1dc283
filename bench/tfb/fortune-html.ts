// How TFB's verifier reads a fortunes page (toolset/test_types/fortune/fortune_html_parser.py,
// written again here from its rules): the page is tokenized as HTML and written back in one
// normal form, which must equal the normal form of the expected page. What the normal form
// forgives: attributes, the case of tag names and of the doctype, whitespace between tags,
// the equivalent escapings of a few characters (`&#34;` for `&quot;`, `&#39;` or `&#x27;` for
// `&apos;`, `&#60;` for `&lt;`, `&mdash;` for `—`, and so on), `'`, `"` and `>` left unescaped
// in text, and <meta>, <link>, <thead>, <tbody> and <script> elements. What it does not:
// a `<` in text (it starts a tag), a missing row, another order, other text.
import { EXTRA_FORTUNE, FORTUNES } from "./data.js";

const IGNORED = new Set(["<meta>", "</meta>", "<link>", "</link>", "<thead>", "</thead>", "<tbody>", "</tbody>"]);
/** Numeric references TFB's parser keeps (normalized); any other is dropped, so its character is missing. */
const CHARREFS: Record<number, string> = { 34: "&quot;", 39: "&apos;", 43: "+", 62: "&gt;", 60: "&lt;", 47: "/", 40: "(", 41: ")" };
const NEWLINE_AFTER = new Set(["<table>", "<html>", "</tr>", "</head>"]);

/** The expected page in normal form: the twelve fortunes and the extra one, sorted, escaped. */
export function expectedFortunes(): string {
  const rows = [...FORTUNES, EXTRA_FORTUNE]
    .sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0))
    .map((f) => `<tr><td>${f.id}</td><td>${textForm(f.message)}</td></tr>\n`);
  return (
    "<!doctype html><html>\n<head><title>Fortunes</title></head>\n<body><table>\n" +
    "<tr><th>id</th><th>message</th></tr>\n" +
    rows.join("") +
    "</table></body></html>"
  );
}

/** Text in normal form: `<` and `&` as entities, then the three characters TFB re-escapes. */
function textForm(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/'/g, "&apos;")
    .replace(/"/g, "&quot;")
    .replace(/>/g, "&gt;");
}

/** `html` in TFB's normal form. */
export function normalizeFortunes(html: string): string {
  const out: string[] = [];
  let inScript = false;
  const append = (item: string): void => {
    inScript = item === "<script>" || (inScript && item !== "</script>");
    if (!inScript && !IGNORED.has(item)) out.push(item);
  };
  const data = (text: string): void => {
    if (text.trim() !== "") append(text.replace(/'/g, "&apos;").replace(/"/g, "&quot;").replace(/>/g, "&gt;"));
  };
  let i = 0;
  let text = "";
  const flush = (): void => {
    data(text);
    text = "";
  };
  while (i < html.length) {
    const c = html[i];
    if (c === "<") {
      const rest = html.slice(i);
      const comment = /^<!--[\s\S]*?-->/.exec(rest);
      const decl = /^<!([^>]*)>/.exec(rest);
      const start = /^<([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^>]*)?\/?>/.exec(rest);
      const end = /^<\/([a-zA-Z][a-zA-Z0-9-]*)\s*>/.exec(rest);
      const match = comment ?? decl ?? start ?? end;
      if (match) {
        flush();
        if (comment) {
          // Comments are not part of the normal form.
        } else if (decl) append(`<!${decl[1].toLowerCase()}>`);
        else {
          const tag = start ? `<${start[1].toLowerCase()}>` : `</${end![1].toLowerCase()}>`;
          append(tag);
          if (NEWLINE_AFTER.has(tag)) append("\n");
        }
        i += match[0].length;
        continue;
      }
    } else if (c === "&") {
      const rest = html.slice(i);
      const num = /^&#(x[0-9a-fA-F]+|[0-9]+);?/.exec(rest);
      const named = /^&([a-zA-Z][a-zA-Z0-9]*);/.exec(rest);
      if (num) {
        flush();
        const code = num[1][0].toLowerCase() === "x" ? Number.parseInt(num[1].slice(1), 16) : Number.parseInt(num[1], 10);
        const kept = CHARREFS[code];
        if (kept !== undefined) append(kept);
        i += num[0].length;
        continue;
      }
      if (named) {
        flush();
        append(named[1] === "mdash" ? "—" : `&${named[1]};`);
        i += named[0].length;
        continue;
      }
    }
    text += c;
    i++;
  }
  flush();
  return out.join("");
}

/** Null when the page is TFB's fortunes page; else the first line that differs, both ways. */
export function fortunesDifference(html: string): string | null {
  const got = normalizeFortunes(html).split("\n");
  const want = expectedFortunes().split("\n");
  for (let i = 0; i < Math.max(got.length, want.length); i++) {
    if (got[i] !== want[i]) {
      return `line ${i + 1} of the normal form is ${JSON.stringify(got[i] ?? "(nothing)")}, expected ${JSON.stringify(want[i] ?? "(nothing)")}`;
    }
  }
  return null;
}
