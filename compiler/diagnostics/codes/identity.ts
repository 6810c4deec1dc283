import { defineDiagnostic as d } from "../diagnostic.js";

/** Identity: `[auth]` tokens and sessions, passwords, and the caller (`auth`): SVC7001–SVC7099. */
export const identityCodes = {
  secretInToml: d(
    "SVC7001",
    "error",
    "A key or secret of [auth.jwt] must come from [credentials], never from svc.toml itself.",
    (path: string) => `${path} holds the secret itself; svc.toml is not the place for a secret`,
    (path: string) => `declare it under [credentials] and write \`${path.split(".").pop()} = { credential = "jwt_secret" }\``,
  ),
  badDuration: d(
    "SVC7002",
    "error",
    "A duration in svc.toml does not parse: a whole number followed by s, m, h or d.",
    (path: string, value: string) => `${path} must be a duration such as 30s, 15m, 1h or 7d, found \`${value}\``,
  ),
  jwtKeys: d(
    "SVC7003",
    "error",
    "[auth.jwt] needs one signing key (secret or private_key), a jwks_url, or both a key and a jwks_url.",
    (problem: "none" | "both") =>
      problem === "both"
        ? "[auth.jwt] names both secret and private_key; tokens are signed with one key"
        : "[auth.jwt] names no key: give secret, private_key or jwks_url",
    (problem: "none" | "both") =>
      problem === "both"
        ? "keep secret for HS256, or private_key for EdDSA/ES256"
        : 'e.g. secret = { credential = "jwt_secret" }',
  ),
  unknownClaimType: d(
    "SVC7004",
    "error",
    "A claim declared in [auth.jwt.claims] has a type svc does not know.",
    (claim: string, type: string) => `claim \`${claim}\` has the type \`${type}\`, which is not a claim type`,
    () => "claim types: text, int, float, bool, json, list<text>",
  ),
  authWithoutIdentity: d(
    "SVC7005",
    "error",
    "`auth` (the caller) is used in a project without an identity mechanism.",
    () => "`auth` is used but the project has no identity: nothing says who is calling",
    () => "add [auth] bearer, [auth.jwt] or [auth.sessions] to svc.toml",
  ),
  issueWithoutKey: d(
    "SVC7006",
    "error",
    "`issue_token` needs a signing key in [auth.jwt] (secret or private_key).",
    () => "`issue_token` is used but [auth.jwt] has no secret or private_key to sign with",
    () => 'add [auth.jwt] secret = { credential = "jwt_secret" } to svc.toml',
  ),
  sessionsOff: d(
    "SVC7007",
    "error",
    "`start_session` and `end_session` need [auth.sessions] in svc.toml.",
    (name: string) => `\`${name}\` is used but svc.toml has no [auth.sessions]`,
    () => 'add [auth.sessions] lifetime = "7d" to svc.toml',
  ),
  passwordInAnswer: d(
    "SVC7008",
    "error",
    "An action's answer would carry a password field: pick the fields to return.",
    (resource: string, field: string) => `this answer would carry \`${resource}.${field}\`, a password`,
    (resource: string) => `return chosen fields instead of the whole ${resource}, e.g. \`return { id: u.id }\``,
  ),
  passwordInSql: d(
    "SVC7009",
    "error",
    "SQL may not name a password column: it is read and written only by record operations.",
    (table: string, column: string) => `SQL names \`${table}.${column}\`, a password column`,
    () => "list the other columns; read a password with `get`, check it with verify_password, set it with insert or update",
  ),
  passwordRead: d(
    "SVC7010",
    "error",
    "A password field is read anywhere but as the first argument of verify_password.",
    (resource: string, field: string) => `\`${resource}.${field}\` is a password: it can only be checked, with verify_password`,
    (_r: string, field: string) => `write verify_password(user.${field}, given)`,
  ),
  verifyArgument: d(
    "SVC7011",
    "error",
    "verify_password takes a stored password field first, then the given text.",
    (found: string) => `the first argument of verify_password must be a password field, found ${found}`,
    () => "e.g. verify_password(user.password, password)",
  ),
  passwordDefault: d(
    "SVC7012",
    "error",
    "A password field cannot have a default.",
    (field: string) => `password field \`${field}\` cannot have a default`,
  ),
  reservedSessionsTable: d(
    "SVC7013",
    "error",
    "With [auth.sessions] the table svc_sessions is the server's own.",
    (name: string) => `the resource \`${name}\` takes the name of the sessions table`,
    () => "rename the resource",
  ),
  identityInWebhook: d(
    "SVC7014",
    "error",
    "A webhook handler has no caller: it cannot use `auth`, issue tokens or sessions.",
    (handler: string) => `\`${handler}\` handles a webhook, whose caller is proved by its signature, not by identity`,
  ),
  jwksOverHttp: d(
    "SVC7015",
    "error",
    "[auth.jwt] jwks_url must be https: keys fetched over plain HTTP can be swapped on the way, and with them any caller forged.",
    (url: string) => `jwks_url \`${url}\` is plain http; the provider's keys must come over https`,
    (url: string) => `write ${JSON.stringify(url.replace(/^http:/i, "https:"))} (plain http is allowed only to a loopback host: localhost, 127.x.x.x, [::1])`,
  ),
  providerWithoutAudience: d(
    "SVC7016",
    "error",
    "[auth.jwt] with a jwks_url needs an audience: without one, tokens the provider minted for any other client are accepted (RFC 8725 §3.9).",
    () => "[auth.jwt] has a jwks_url but no audience: a token the provider issued to another application would be accepted here",
    () => 'add audience = "<the id the provider puts in aud for this API>"; if its tokens carry no aud at all, write audience = false to accept any',
  ),
  providerWithoutIssuer: d(
    "SVC7017",
    "error",
    "[auth.jwt] with a jwks_url needs an issuer: providers share key sets between tenants, and the issuer says whose tokens these are.",
    () => "[auth.jwt] has a jwks_url but no issuer: a token of any issuer signed with one of these keys would be accepted",
    () => 'add issuer = "<the iss of the provider\'s tokens>", e.g. issuer = "https://idp.example/"',
  ),
  leewayTooLong: d(
    "SVC7018",
    "error",
    "[auth.jwt] leeway is at most 5 minutes: it forgives clocks that differ, not tokens that expired.",
    (value: string) => `leeway \`${value}\` is over 5 minutes`,
    () => 'the default is 30s; e.g. leeway = "1m"',
  ),
  verifyWithoutUpgrade: d(
    "SVC7045",
    "warning",
    "verify_password reads the stored hash from a row that has no name, so a weaker hash cannot be upgraded after a successful sign-in.",
    (resource: string, field: string) => `\`${resource}.${field}\` is read from an expression, not a named row: a hash weaker than new ones stays as it is`,
    () => "name the row first, e.g. `let user = get account(id)`, then verify_password(user.password, given)",
  ),
  revokeWithoutStore: d(
    "SVC7050",
    "error",
    "`revoke` needs something to revoke: [auth.jwt] (tokens) or [auth.sessions] (sessions).",
    () => "`revoke` is used but svc.toml has neither [auth.jwt] nor [auth.sessions]: a bearer list is revoked by editing it",
    () => 'add [auth.sessions] or [auth.jwt] to svc.toml, or remove the token from the [auth] bearer list',
  ),
  idleNotShorter: d(
    "SVC7051",
    "error",
    "[auth.sessions] idle must be shorter than the session's lifetime, or it never applies.",
    (idle: string, lifetime: string) => `auth.sessions.idle (${idle}) is not shorter than the lifetime (${lifetime}), so it would never end a session`,
    () => 'e.g. lifetime = "7d" with idle = "30m"; leave idle out for no idle timeout',
  ),
  reservedRevocationsTable: d(
    "SVC7052",
    "error",
    "With [auth.jwt] the table svc_revocations is the server's own.",
    (name: string) => `the resource \`${name}\` takes the name of the table of revocations`,
    () => "rename the resource",
  ),
};
