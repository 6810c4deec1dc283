import { defineDiagnostic as d } from "../diagnostic.js";

/** Rate limits (`limit … per …`) and the sign-in throttle (`[auth.throttle]`): SVC7030–SVC7044. */
export const limitCodes = {
  unknownKey: d(
    "SVC7030",
    "error",
    "A `limit … by <name>` names neither `address`, `auth.id` nor an argument of what it limits.",
    (name: string, owner: string, suggestion: string | null) =>
      `\`by ${name}\`: ${owner} has no argument \`${name}\`${suggestion ? `; did you mean \`${suggestion}\`?` : ""}`,
    () => "key a limit by `address` (the client), `auth.id` (the caller) or one of the arguments",
  ),
  badWindow: d(
    "SVC7031",
    "error",
    "A limit's window is not a positive duration: a whole number and s, m, h or d (or second, minute, hour, day).",
    (written: string) => `\`per ${written}\` is not a window`,
    () => "e.g. `limit 5 per 1m`, `limit 100 per 1h`, `limit 10 per minute`",
  ),
  badNumber: d(
    "SVC7032",
    "error",
    "A limit's request count and burst must be whole numbers from 1 to 1,000,000.",
    (what: "count" | "burst", value: number) => `a limit's ${what} must be from 1 to 1000000, found ${value}`,
    (what: "count" | "burst") => (what === "burst" ? "the burst is how many requests may come at once; leave it out to allow the count at once" : undefined),
  ),
  callerWithoutIdentity: d(
    "SVC7033",
    "error",
    "`limit … by auth.id` in a project without an identity mechanism: there is never a caller to count.",
    () => "`by auth.id` is used but the project has no identity: nothing says who is calling",
    () => "add [auth] bearer, [auth.jwt] or [auth.sessions] to svc.toml, or key the limit `by address`",
  ),
  badKeyMember: d(
    "SVC7034",
    "error",
    "A limit's key with a member is `auth.id`; nothing else has one.",
    (written: string) => `\`by ${written}\` is not a key`,
    () => "key a limit by `address`, `auth.id` or an argument's name",
  ),
  ambiguousKey: d(
    "SVC7035",
    "error",
    "`by address` where an argument is also called `address`: the key would be ambiguous.",
    (owner: string) => `\`by address\`: ${owner} has an argument called \`address\`, and \`by address\` means the client's address`,
    () => "rename the argument to key the limit by it, or key by the client with another argument name",
  ),
  blockKey: d(
    "SVC7036",
    "error",
    "A route-file block's limit is keyed by an argument the block does not give from the request (`input.query`, `input.body`, `input.params`) or a literal.",
    (name: string, why: string) => `a limit of this block is keyed by \`${name}\`, which ${why}`,
    () => "give the argument from input.query.x, input.body.x or input.params.x, or key the limit by address or auth.id",
  ),
  badThrottle: d(
    "SVC7037",
    "error",
    "A rate in [auth.throttle] does not parse: `N per <window>`, optionally followed by `burst M`.",
    (path: string, value: string) => `${path} must be a rate such as "2 per 1m burst 5", found \`${value}\``,
    () => "counts and bursts from 1 to 1000000; windows such as 30s, 1m, 1h",
  ),
};
