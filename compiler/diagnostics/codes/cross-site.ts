import { defineDiagnostic as d } from "../diagnostic.js";

/** A GET that writes, and its explicit allowance `unsafe` (docs/language.md §3, Requests from other sites): SVC7020–SVC7024. */
export const crossSiteCodes = {
  getWrites: d(
    "SVC7020",
    "error",
    "A GET route or route-file GET block (or the page it feeds) reaches an action that writes: any site's link runs a GET with the user's cookie.",
    (what: string, action: string, write: { what: string; through: string[] }, _allow: string) =>
      `${what} runs \`${action}\`, which writes (\`${write.what}\`${write.through.length > 0 ? ` through ${write.through.map((a) => `\`${a}\``).join(" → ")}` : ""}); a link from any site can run a GET`,
    (_what: string, _action: string, _write: { what: string; through: string[] }, allow: string) =>
      `use POST, PUT, PATCH or DELETE, which requests from other sites cannot run; or, if a link must run it (an e-mail confirmation with a token), write \`${allow}\``,
  ),
  needlessUnsafe: d(
    "SVC7021",
    "warning",
    "`unsafe` allows nothing here: the route or block is not a GET, or reaches no write.",
    (what: string, why: "method" | "reads") =>
      why === "method"
        ? `\`unsafe\` on ${what}: only a GET can be unsafe; other methods are guarded by the cross-site rule`
        : `\`unsafe\` on ${what}, which writes nothing`,
    () => "remove `unsafe`",
  ),
};
