import type { Model } from "../analyze/model/model.js";

// `svc build`'s note on the declared schema changes (docs/language.md §2.1, Changing a
// resource): one line per change, saying when it runs, without a database. The steps
// themselves depend on the live schema: `svc migrate plan --db …` prints them.

const EXPAND_THEN_COMPLETE = "expand at start or `svc migrate apply`, then `svc migrate complete`";
const AT_COMPLETE = "at `svc migrate complete`";

export function schemaSummary(model: Model): string[] {
  const lines: string[] = [];
  for (const r of model.resources) {
    for (const c of r.changes?.columns ?? []) {
      const lossy = c.retype?.lossy ? "; lossy: values that do not convert are lost" : "";
      lines.push(`schema: ${joinKeys(c.keys)} (${EXPAND_THEN_COMPLETE}${lossy})`);
    }
    for (const d of r.changes?.dropColumns ?? []) lines.push(`schema: ${r.name} drop ${d.name} (${AT_COMPLETE}; lossy: the column's data is lost)`);
  }
  for (const t of model.schema?.dropTables ?? []) lines.push(`schema: drop resource ${t.name} (${AT_COMPLETE}; lossy: the table's data is lost)`);
  return lines;
}

/** `task.price renamed from amount` and `task.price changed from text` as `task.price renamed from amount, changed from text`. */
function joinKeys(keys: readonly string[]): string {
  const [first, ...rest] = keys;
  const subject = first.slice(0, first.indexOf(" "));
  return [first, ...rest.map((k) => k.slice(subject.length + 1))].join(", ");
}
