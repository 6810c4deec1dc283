// The non-code assets svc writes or serves, kept as real files in templates/ at the top of the
// package so they can be read and edited as what they are: svc dev's client script, overlay
// and error page (dev/), the layout and error page a built server falls back to (pages/), and
// the files written beside a built server (output/), and the fixed part of the generated
// API client (client/). Only the compiler reads them, at build
// time or while `svc dev` runs; a built server gets what it needs in its generated files.

import { readFileSync } from "node:fs";
import Mustache from "mustache";

export type TemplateName =
  | "dev/client.js"
  | "dev/overlay.html"
  | "dev/error-page.html"
  | "dev/traces.html"
  | "pages/layout.html"
  | "pages/error.html"
  | "output/package.json"
  | "output/start.sh"
  | "client/runtime.ts"
  | "client/runtime.js";

/** From build/compiler/ (and compiler/ when run from source), the package's top folder is two up. */
const ROOT = new URL("../../templates/", import.meta.url);
const read = new Map<TemplateName, string>();

/** A template's text, read once. Throws when the svc package is missing the file (a broken install). */
export function readTemplate(name: TemplateName): string {
  let text = read.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(name, ROOT), "utf8");
    read.set(name, text);
  }
  return text;
}

/** `&`, `<`, `>`, `"` and `'` as numeric references: safe in text and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An HTML template filled in: `{{x}}` escaped with escapeHtml, `{{{x}}}` as given. */
export function renderTemplate(name: TemplateName, view: Record<string, unknown>): string {
  return Mustache.render(readTemplate(name), view, {}, { escape: (value: unknown) => escapeHtml(String(value)) });
}
