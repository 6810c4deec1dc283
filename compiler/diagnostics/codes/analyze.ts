import { defineDiagnostic as d } from "../diagnostic.js";

const didYouMean = (near: string | null) => (near ? `did you mean \`${near}\`?` : undefined);

/** Name resolution, types and declarations: SVC2001–SVC2099. */
export const analyzeCodes = {
  moduleNameMismatch: d(
    "SVC2001",
    "error",
    "All files of one module folder must name the same module.",
    (name: string, expected: string) => `this file says \`module ${name}\`, but its folder's module is \`${expected}\``,
    () => "every .svc file in one folder belongs to the same module",
  ),
  duplicateDeclaration: d(
    "SVC2002",
    "error",
    "A name is declared twice in one module.",
    (kind: string, name: string, other: string) => `${kind} \`${name}\` is already declared at ${other}`,
  ),
  unknownType: d(
    "SVC2003",
    "error",
    "A field or parameter names a type that does not exist.",
    (name: string, near: string | null) => `unknown type \`${name}\``,
    (_name: string, near: string | null) =>
      didYouMean(near) ?? "types are id, text, int, float, bool, timestamp, json and enum(a, b, …)",
  ),
  enumWithoutValues: d(
    "SVC2004",
    "error",
    "An enum type lists no values, or lists one twice.",
    (problem: string) => problem,
  ),
  resourceKey: d(
    "SVC2005",
    "error",
    "A resource needs exactly one field of type id, its primary key.",
    (resource: string, count: number) =>
      count === 0 ? `resource \`${resource}\` has no field of type id` : `resource \`${resource}\` has ${count} fields of type id`,
    () => "declare one field such as `id: id`: it is the primary key, made by the server",
  ),
  badDefault: d(
    "SVC2006",
    "error",
    "A default value does not fit the declared type.",
    (what: string, expected: string) => `default of \`${what}\` must be ${expected}`,
  ),
  unknownIndexColumn: d(
    "SVC2007",
    "error",
    "An index names a field the resource does not have.",
    (column: string, resource: string, near: string | null) => `resource \`${resource}\` has no field \`${column}\``,
    (_c: string, _r: string, near: string | null) => didYouMean(near),
  ),
  duplicateField: d(
    "SVC2008",
    "error",
    "A field or parameter name is used twice.",
    (name: string) => `\`${name}\` is declared twice`,
  ),
  reservedParamName: d(
    "SVC2009",
    "error",
    "A parameter is named like a built-in member of every JavaScript object.",
    (name: string) => `\`${name}\` cannot be a parameter name`,
    () => "names such as __proto__, constructor, prototype and toString collide with every object's built-ins; pick another name",
  ),
  unknownName: d(
    "SVC2010",
    "error",
    "A name is not a parameter, a variable, a query, an action or a built-in function.",
    (name: string, near: string | null) => `unknown name \`${name}\``,
    (_n: string, near: string | null) => didYouMean(near),
  ),
  unknownResource: d(
    "SVC2011",
    "error",
    "A record operation names a resource that is not declared.",
    (name: string, near: string | null) => `unknown resource \`${name}\``,
    (_n: string, near: string | null) => didYouMean(near),
  ),
  unknownField: d(
    "SVC2012",
    "error",
    "A field access or a written field is not a field of the resource or row.",
    (field: string, of: string, near: string | null) => `\`${of}\` has no field \`${field}\``,
    (_f: string, _o: string, near: string | null) => didYouMean(near),
  ),
  typeMismatch: d(
    "SVC2013",
    "error",
    "A value has a type that does not fit where it is used.",
    (what: string, expected: string, found: string) => `${what} must be ${expected}, found ${found}`,
  ),
  enumValueUnknown: d(
    "SVC2014",
    "error",
    "A string is compared with, or written to, an enum that does not list it.",
    (value: string, field: string, values: string[]) => `"${value}" is not a value of \`${field}\``,
    (_v: string, _f: string, values: string[]) => `the values are ${values.map((v) => `"${v}"`).join(", ")}`,
  ),
  badCallArgs: d(
    "SVC2015",
    "error",
    "A call passes an argument the callee does not take, misses a required one, or mixes styles.",
    (problem: string) => problem,
  ),
  requiredFieldMissing: d(
    "SVC2016",
    "error",
    "An insert leaves out a field that is not nullable and has no default.",
    (resource: string, fields: string[]) => `insert into \`${resource}\` must set ${fields.map((f) => `\`${f}\``).join(", ")}`,
    () => "give the field a value, make it nullable (`T?`), or give it a default",
  ),
  failStatus: d(
    "SVC2017",
    "error",
    "`fail` takes one of the statuses 400, 401, 403, 404, 409 and 422.",
    (status: number) => `\`fail ${status}\` is not allowed`,
    () => "use 400, 401, 403, 404, 409 or 422",
  ),
  letShadows: d(
    "SVC2018",
    "error",
    "A `let` reuses the name of a parameter or an earlier variable.",
    (name: string) => `\`${name}\` is already defined`,
  ),
  keyWrite: d(
    "SVC2019",
    "error",
    "The primary key is made by the server on insert and never changes.",
    (field: string) => `\`${field}\` is the primary key and cannot be written`,
  ),
  unreachable: d(
    "SVC2021",
    "warning",
    "A statement after `return` or `fail` never runs.",
    () => "this statement never runs",
  ),
  requiresWithoutAuth: d(
    "SVC2022",
    "error",
    "`requires` needs an identity mechanism in svc.toml: `[auth] bearer`, `[auth.jwt]` or `[auth.sessions]`.",
    () => "`requires` is used but the project has no `[auth]` section",
    () => "add `[auth] bearer = { credential = \"api_tokens\" }`, `[auth.jwt]` or `[auth.sessions]` to svc.toml",
  ),
  sqlVariableType: d(
    "SVC2023",
    "error",
    "An `sql { … }` block binds a variable whose value is not a scalar.",
    (name: string, found: string) => `\`@${name}\` must be a scalar value, found ${found}`,
  ),
  unknownRouteMethod: d(
    "SVC2030",
    "error",
    "Routes take the methods GET, POST, PUT and DELETE.",
    (method: string) => `unknown method \`${method}\``,
    () => "use GET, POST, PUT or DELETE",
  ),
  badRoutePath: d(
    "SVC2031",
    "error",
    "A route path starts with `/` and has non-empty segments; `:name` segments are unique.",
    (problem: string) => problem,
  ),
  unknownRouteTarget: d(
    "SVC2032",
    "error",
    "A route's target is not an action or a query of its module.",
    (name: string, near: string | null) => `\`${name}\` is not an action or a query of this module`,
    (_n: string, near: string | null) => didYouMean(near),
  ),
  routeParamUnknown: d(
    "SVC2033",
    "error",
    "A `:param` segment does not name an argument of the route's target.",
    (param: string, target: string) => `\`:${param}\` is not an argument of \`${target}\``,
  ),
  duplicateRoute: d(
    "SVC2034",
    "error",
    "The same method and path is claimed twice.",
    (method: string, path: string, other: string) => `${method} ${path} is already claimed at ${other}`,
  ),
  routeShadowed: d(
    "SVC2035",
    "warning",
    "A route can never match because an earlier route matches every path it would.",
    (path: string, earlier: string) => `${path} can never match: ${earlier} is declared first and matches it`,
    () => "routes match in declaration order; declare the more specific route first",
  ),
  webhookField: d(
    "SVC2040",
    "error",
    "A webhook declaration has an unknown, missing or ill-typed field.",
    (problem: string) => problem,
    () => "a webhook has provider, secret, path and handler",
  ),
  webhookProvider: d(
    "SVC2041",
    "error",
    "A webhook's provider is not one svc verifies.",
    (provider: string) => `unknown webhook provider "${provider}"`,
    () => 'providers are "github", "stripe", "slack", "standard" and "hmac"',
  ),
  webhookSecret: d(
    "SVC2042",
    "error",
    "A webhook's secret must be a `credentials.NAME` reference.",
    () => "`secret` must be a reference like `credentials.github_webhook`",
    () => "secrets are never written in source: declare them under [credentials] in svc.toml",
  ),
  webhookHandler: d(
    "SVC2043",
    "error",
    "A webhook's handler must be an action that accepts payload, event and delivery.",
    (problem: string) => problem,
  ),
  actionCycle: d(
    "SVC2060",
    "error",
    "Actions that call each other in a circle: the calls would never end.",
    (caller: string, callee: string) =>
      caller === callee
        ? `action \`${caller}\` calls itself`
        : `actions \`${callee}\` and \`${caller}\` call each other (directly or through other actions)`,
    () => "actions may call actions, but not in a circle; move the shared part into a third action both call",
  ),
  calleeRequires: d(
    "SVC2061",
    "error",
    "An action calls another action whose `requires` the caller does not have: the call would skip that check.",
    (caller: string, callee: string, requirement: string) =>
      `action \`${caller}\` calls \`${callee}\`, which requires ${requirement}, but \`${caller}\` does not`,
    (caller: string, _callee: string, requirement: string) => `declare \`requires ${requirement}\` on \`${caller}\` too`,
  ),
} as const;
