// What TFB's rules ask of every implementation, written once for the two baselines (the
// TechEmpower wiki, "Project Information Framework Tests Overview"): the `queries` parameter,
// random ids, and the fortunes page with its HTML escaping.
import { EXTRA_FORTUNE } from "./data.js";

export const HELLO = "Hello, World!";

/** `queries` as TFB reads it: an integer clamped to 1..500; missing, empty or not a number is 1. */
export function queriesParam(raw: string | string[] | undefined | null): number {
  const n = Number.parseInt(typeof raw === "string" ? raw : "", 10);
  if (Number.isNaN(n) || n < 1) return 1;
  return n > 500 ? 500 : n;
}

/** A world id or a new random number: 1..10000. */
export function randomWorld(): number {
  return 1 + Math.floor(Math.random() * 10_000);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as HTML element content or attribute value: the five characters that can break out. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * The fortunes page: the rows read plus the one added at request time, sorted by message
 * (JavaScript's code-unit order, as TFB's reference implementations sort), escaped.
 */
export function fortunesHtml(rows: readonly { id: number; message: string }[]): string {
  const all = [...rows, EXTRA_FORTUNE].sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  let html =
    "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>";
  for (const f of all) html += `<tr><td>${f.id}</td><td>${escapeHtml(f.message)}</td></tr>`;
  return html + "</table></body></html>";
}
