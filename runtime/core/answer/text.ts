// The bodies of `respond text|html|csv|type "…"` answers (docs/language.md §2.4, "Answers of
// any media type"): text as the compiled respond built it, sent with the Content-Type the
// build chose.

/**
 * A value as the body of a text answer: text as it is; a value the build could not type (a
 * json member) as text too: absent or null is empty, a number or true/false as written,
 * anything else as JSON.
 */
export function answerText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * A value inside a `respond html` answer: escaped, so a result field or a request value is
 * shown as text and never becomes markup (`<script>` arrives as `&lt;script&gt;`). Only the
 * literals of the respond itself are written as markup.
 */
export function answerHtml(value: unknown): string {
  return answerText(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}
