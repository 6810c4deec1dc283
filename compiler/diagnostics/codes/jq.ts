import { defineDiagnostic as d } from "../diagnostic.js";

/** page.jq programs: SVC5001–SVC5099. */
export const jqCodes = {
  syntax: d(
    "SVC5001",
    "error",
    "A page.jq program is not valid jq.",
    (problem: string) => `jq syntax error: ${problem}`,
    () => "see https://jqlang.github.io/jq/manual/ for jq's syntax",
  ),
  unknownFunction: d(
    "SVC5002",
    "error",
    "A page.jq program calls a function jq does not define.",
    (name: string, arity: number, _near: string | null) => `jq function ${name}/${arity} is not defined`,
    (_name: string, _arity: number, near: string | null) => (near ? `did you mean \`${near}\`?` : undefined),
  ),
  unknownVariable: d(
    "SVC5003",
    "error",
    "A page.jq program uses a variable that is not bound.",
    (name: string) => `jq variable $${name} is not defined`,
    () => "pages bind $params (the path parameters) and $query (the query string); bind others with `… as $name | …`",
  ),
  nonStringKey: d(
    "SVC5004",
    "error",
    "A page.jq object construction uses a constant key that is not a string.",
    (found: string) => `object keys must be strings; this key is always ${found}`,
    () => 'write the key as a string, e.g. {"1": …}',
  ),
  moduleDirective: d(
    "SVC5005",
    "error",
    "A page.jq program starts with an `import`, `include` or `module` directive.",
    (what: string) => `\`${what}\` directives cannot be used in page.jq: svc gives jq no module library to load from`,
    () => "define what the page needs in page.jq itself, e.g. `def slug: ascii_downcase; …`",
  ),
  jqRefused: d(
    "SVC5006",
    "error",
    "jq itself refuses to compile a page.jq program that runs on jq-web (checked with jq-web at build time).",
    (problem: string) => `jq cannot compile this program: ${problem}`,
    () => "this program runs on jq-web, which compiled it at build time as the server would at each request",
  ),
};
