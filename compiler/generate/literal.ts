/**
 * A JavaScript literal for plain data (strings, numbers, booleans, null, arrays,
 * objects), with identifier keys unquoted so the generated file reads like hand-written
 * code. Key order is kept: output is deterministic for deterministic input.
 */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{ ${entries.map(([k, v]) => `${key(k)}: ${literal(v)}`).join(", ")} }`;
  }
  if (typeof value === "string" && value.includes("\n")) return templateLiteral(value);
  return JSON.stringify(value);
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
