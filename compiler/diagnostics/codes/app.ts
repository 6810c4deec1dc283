import { defineDiagnostic as d } from "../diagnostic.js";

const didYouMean = (near: string | null) => (near ? `did you mean \`${near}\`?` : undefined);

/** Route files, pages, the layout and public/ (docs/language.md §4–5): SVC6001–SVC6099. */
export const appCodes = {
  unknownMethod: d(
    "SVC6001",
    "error",
    "A route-file block names a method other than GET, POST, PUT, PATCH or DELETE.",
    (method: string) => `unknown method \`${method}\``,
    () => "route-file blocks are GET, POST, PUT, PATCH or DELETE, written in capitals",
  ),
  duplicateBlock: d(
    "SVC6002",
    "error",
    "Two blocks of one route file have the same method and name.",
    (what: string, other: string) => `${what} is already declared at ${other}`,
    () => "one default block per method; give the others names and choose them with ?handler=name",
  ),
  unknownModule: d(
    "SVC6003",
    "error",
    "A data step names a module the project does not have.",
    (name: string, _near: string | null) => `there is no module \`${name}\``,
    (_name: string, near: string | null) => didYouMean(near),
  ),
  unknownTarget: d(
    "SVC6004",
    "error",
    "A data step names a query or action its module does not declare.",
    (kind: string, module: string, name: string, _near: string | null) => `module \`${module}\` has no ${kind} \`${name}\``,
    (_kind: string, _module: string, _name: string, near: string | null) => didYouMean(near),
  ),
  wrongStep: d(
    "SVC6005",
    "error",
    "A data step calls the wrong kind of target: invoke runs actions, query and fetch run queries.",
    (op: string, target: string, kind: string) => `\`${op}\` cannot call ${kind} \`${target}\``,
    (op: string) => (op === "invoke" ? "use `query` (a list) or `fetch` (one row) for a query" : "use `invoke` for an action"),
  ),
  fetchNotOne: d(
    "SVC6006",
    "error",
    "`fetch` runs a query declared with `one`.",
    (target: string) => `\`fetch\` needs a \`one\` query, but \`${target}\` returns a list`,
    () => "use `query` for a list (the route data is {records}), or declare the query with `one`",
  ),
  queryOnOne: d(
    "SVC6007",
    "error",
    "`query` runs a query that returns a list; a `one` query is run with `fetch`.",
    (target: string) => `\`${target}\` is a \`one\` query: use \`fetch\``,
    () => "`fetch` gives {result: row} and answers 404 when there is no row",
  ),
  unknownArgument: d(
    "SVC6008",
    "error",
    "A data step passes an argument its target does not declare.",
    (target: string, name: string, _near: string | null) => `\`${target}\` has no argument \`${name}\``,
    (_target: string, _name: string, near: string | null) => didYouMean(near),
  ),
  missingArgument: d(
    "SVC6009",
    "error",
    "A data step leaves out a required argument of its target.",
    (target: string, names: string[]) =>
      `\`${target}\` needs ${names.length === 1 ? "argument" : "arguments"} ${names.map((n) => `\`${n}\``).join(", ")}`,
    (_target: string, names: string[]) => `pass it, e.g. \`${names[0]}: input.body.${names[0]}\``,
  ),
  argumentType: d(
    "SVC6010",
    "error",
    "A value in a data step does not fit the argument's declared type.",
    (target: string, name: string, expected: string, found: string) =>
      `argument \`${name}\` of \`${target}\` is ${expected}, but this is ${found}`,
  ),
  duplicateArgument: d(
    "SVC6011",
    "error",
    "A data step passes one argument twice.",
    (name: string) => `argument \`${name}\` is given twice`,
  ),
  badInput: d(
    "SVC6012",
    "error",
    "`input` is used in a form other than input.query.x, input.body.x, input.params.x, input.headers.x or input.base_url.",
    (written: string) => `\`${written}\` is not a value of the request`,
    () =>
      "write input.query.<name> (query string), input.body.<name> (body), input.params.<name> (path), input.headers.<name> (a header) or input.base_url",
  ),
  unknownPathParam: d(
    "SVC6013",
    "error",
    "`input.params.x` names a path parameter the route file's folder does not have.",
    (name: string, path: string, _near: string | null) => `\`${path}\` has no path parameter \`${name}\``,
    (_name: string, path: string, near: string | null) =>
      didYouMean(near) ?? "a folder named [name] is the path parameter `name`",
  ),
  bodyInGet: d(
    "SVC6014",
    "error",
    "A GET block reads `input.body`; GET requests have no body.",
    () => "a GET request has no body",
    () => "read the query string with input.query.<name>",
  ),
  blockShape: d(
    "SVC6015",
    "error",
    "A block holds at most one data step, then at most one respond and one redirect.",
    (problem: string) => problem,
  ),
  redirectInGet: d(
    "SVC6016",
    "error",
    "`redirect` is used in a GET block; only form posts are redirected.",
    () => "`redirect` answers a form post; a GET block cannot redirect",
    () => "put the redirect in the POST, PUT or DELETE block that the form submits to",
  ),
  unsupportedExpression: d(
    "SVC6017",
    "error",
    "A route-file value uses an expression route files do not support.",
    (what: string) => `${what} cannot be used in a route file`,
    () =>
      "route files use literals, input.query|body|params|headers.<name>, input.base_url, result.<field> (in a redirect or respond), + to join text, and objects and lists in a respond",
  ),
  badResult: d(
    "SVC6018",
    "error",
    "`result` is used where there is none, or names a field the result does not have.",
    (problem: string, _near: string | null) => problem,
    (_problem: string, near: string | null) => didYouMean(near),
  ),
  badFolder: d(
    "SVC6019",
    "error",
    "A folder under app/ cannot be part of a URL.",
    (folder: string, problem: string) => `folder \`${folder}\` ${problem}`,
    () => "a folder is a URL segment; [name] (letters, digits, _) is the path parameter `name`",
  ),
  frontMatter: d(
    "SVC6020",
    "error",
    "A page's front matter is malformed.",
    (problem: string) => problem,
    () => "front matter is `---`, lines of `key: value`, then `---`, at the very top of page.html",
  ),
  frontMatterKey: d(
    "SVC6021",
    "error",
    "A page's front matter has a key other than title and route, or has one twice.",
    (key: string, twice: boolean, _near: string | null) =>
      twice ? `\`${key}\` is given twice` : `unknown front matter key \`${key}\``,
    (_key: string, twice: boolean, near: string | null) =>
      twice ? undefined : (didYouMean(near) ?? "pages know `title` and `route`"),
  ),
  pageRouteUnknown: d(
    "SVC6022",
    "error",
    "A page's `route` names no route file.",
    (route: string, _near: string | null) => `no route file answers \`${route}\``,
    (_route: string, near: string | null) =>
      didYouMean(near) ?? "route names the URL of a route file, e.g. /api/task_tracker for app/api/task_tracker/route.svc",
  ),
  pageRouteNoGet: d(
    "SVC6023",
    "error",
    "A page's `route` names a route file without a default GET block.",
    (route: string, file: string) => `${file} (\`${route}\`) has no default GET block to load the page's data`,
    () => "add `GET { query … }` or `GET { fetch … }` to the route file",
  ),
  pageRouteParams: d(
    "SVC6024",
    "error",
    "A page's `route` needs a path parameter the page's own path does not have.",
    (route: string, names: string[]) =>
      `\`${route}\` needs ${names.map((n) => `:${n}`).join(", ")}, which this page's path does not have`,
    () => "the page passes its own path parameters to the route: name the folders alike, e.g. [id] in both",
  ),
  templateSyntax: d(
    "SVC6025",
    "error",
    "A mustache template (page.html, layout.html or a title) does not parse.",
    (problem: string) => `template: ${problem}`,
  ),
  templatePartial: d(
    "SVC6026",
    "error",
    "A template uses a mustache partial; pages have none.",
    (name: string) => `partial \`{{> ${name}}}\` is not available`,
    () => "the layout wraps every page; put shared markup in app/layout.html",
  ),
  jqWithoutPage: d(
    "SVC6027",
    "error",
    "A page.jq has no page.html beside it.",
    () => "page.jq has no page.html beside it",
    () => "page.jq turns a page's route data into its view; add page.html to the same folder",
  ),
  layoutWithoutContent: d(
    "SVC6028",
    "warning",
    "The layout never writes the page's content with {{{content}}}.",
    () => "layout.html does not write {{{content}}}: no page will show",
    () => "put {{{content}}} (three braces: the page is HTML) in the main area, e.g. <main up-main>{{{content}}}</main>",
  ),
  publicFile: d(
    "SVC6029",
    "error",
    "A file of public/ cannot be served.",
    (file: string, problem: string) => `${file}: ${problem}`,
  ),
  jqFallback: d(
    "SVC6030",
    "warning",
    "A page.jq program is outside the subset compiled to JavaScript; it runs on jq-web, slower.",
    (reason: string) => `this program runs on jq-web at request time (${reason})`,
    () => "jq-web takes a millisecond or more per page (on a thread of its own, bounded to 1 s); docs/language.md lists what compiles",
  ),
  reservedPath: d(
    "SVC6031",
    "error",
    "A page or route file claims a path the server keeps for itself.",
    (path: string, owner: string) => `\`${path}\` is kept for ${owner}`,
  ),
  webhookHandler: d(
    "SVC6033",
    "error",
    "A route file invokes an action that is a webhook's handler; it runs only for verified deliveries.",
    (target: string, webhook: string) => `\`${target}\` is the handler of webhook \`${webhook}\` and runs only through it`,
    () => "declare a separate action for the route file; the handler must only see signed deliveries",
  ),
  redirectTarget: d(
    "SVC6032",
    "error",
    "A redirect does not start with a path on this site.",
    (written: string) => `redirect to \`${written}\` leaves the site`,
    () => "a redirect is a path such as \"/tasks\" or \"/tasks/\" + input.params.id",
  ),
};
