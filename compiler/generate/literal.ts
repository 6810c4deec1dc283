/** Prettier's print width for server.ts (format-worker.ts). */
const WIDTH = 110;

/**
 * A JavaScript literal for plain data (strings, numbers, booleans, null, arrays,
 * objects), with identifier keys unquoted so the generated file reads like hand-written
 * code. Key order is kept: output is deterministic for deterministic input.
 *
 * An object or array whose one-line form would not fit in the print width at `indent` is
 * written one entry per line: `svc dev` runs the JavaScript transpiled from this printing
 * without prettier, and it stays readable; since prettier breaks exactly these too, the
 * formatted server.ts comes out the same either way.
 */
export function literal(value: unknown, indent = 0): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) {
    const items = value.map((v) => literal(v, indent + 2));
    return wrap("[", items, "]", indent, (one) => `[${one}]`);
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    const items = entries.map(([k, v]) => `${key(k)}: ${literal(v, indent + 2)}`);
    return wrap("{", items, "}", indent, (one) => (one === "" ? "{}" : `{ ${one} }`));
  }
  if (typeof value === "string" && value.includes("\n")) return templateLiteral(value);
  return JSON.stringify(value);
}

function wrap(open: string, items: string[], close: string, indent: number, oneLine: (joined: string) => string): string {
  const single = oneLine(items.join(", "));
  if (items.length === 0 || (!single.includes("\n") && indent + single.length <= WIDTH)) return single;
  const pad = " ".repeat(indent + 2);
  return `${open}\n${items.map((item) => `${pad}${item},`).join("\n")}\n${" ".repeat(indent)}${close}`;
}

/** A multi-line string as a template literal, so its lines read as lines. */
function templateLiteral(text: string): string {
  return "`" + text.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${") + "`";
}

export function key(k: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
}

/** SQL as a readable literal: a template string keeps its lines (backticks and `${` escaped). */
export function sqlLiteral(sql: string): string {
  const text = dedent(sql);
  return text.includes("\n") ? templateLiteral(text) : JSON.stringify(text);
}

/**
 * Remove the common indentation of a multi-line SQL body and its blank first/last lines.
 * Only where no quoted literal spans lines: the text inside quotes is data and is kept.
 */
export function dedent(text: string): string {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const quotesBalanced = lines.every((l) => (l.match(/['"`]/g) ?? []).length % 2 === 0);
  if (!quotesBalanced) return text.trim();
  while (lines.length && lines[0].trim() === "") lines.shift();
  while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
  const indents = lines.filter((l) => l.trim() !== "").map((l) => l.match(/^[ \t]*/)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut).trimEnd()).join("\n");
}
