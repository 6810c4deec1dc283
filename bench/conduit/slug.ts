// Conduit's slug of a title, as svc's `slug` builtin makes it (runtime/builtins.ts): lowercase
// ASCII letters and digits, runs of anything else as one `-`, none at either end, accents dropped.
const FOLDED: Record<string, string> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ð: "d", ł: "l", þ: "th", ı: "i" };

export function conduitSlug(title: string): string {
  return title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[ßæœøđðłþı]/g, (c) => FOLDED[c])
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
