// Mustache templates (docs/language.md §5), parsed once at start and rendered from their tokens on
// each request: `{{x}}` is HTML-escaped, `{{{x}}}` is raw. A page's title is rendered as
// plain text (not escaped there), because the layout escapes it where it writes `{{title}}`;
// escaping twice would show `&amp;lt;` in the tab.

import Mustache from "mustache";

export interface Template {
  text: string;
  tokens: unknown[];
}

const writer = new Mustache.Writer();
const asText = { escape: (value: unknown) => String(value) };

export function parseTemplate(text: string): Template {
  // The compiler checked every template; a failure here is a bug worth a start-up error.
  return { text, tokens: writer.parse(text) as unknown[] };
}

/** Hot path: renders HTML, escaping `{{x}}`. */
export function renderHtml(t: Template, view: unknown): string {
  return writer.renderTokens(t.tokens as string[][], new Mustache.Context(view), undefined, t.text);
}

/** Renders text that will be escaped later, by the template it is written into. */
export function renderText(t: Template, view: unknown): string {
  return writer.renderTokens(t.tokens as string[][], new Mustache.Context(view), undefined, t.text, asText);
}
