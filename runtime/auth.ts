// Bearer tokens (docs/language.md §6; RFC 6750 for the header and the challenge). svc.toml
// `[auth] bearer = { credential = "api_tokens" }` names a credential holding one token per
// line, optionally followed by its roles: `token` or `token role [role…]`. Blank lines and
// lines starting with `#` are skipped.
//
// Tokens are kept only as SHA-256 digests and a presented token is compared, by digest, in
// constant time against every line: neither the comparison nor the number of lines tried
// depends on which token (if any) matched, or on how long it is.
//
// Answers: no bearer token → 401 `WWW-Authenticate: Bearer`; a token that is not on the
// list → 401 `WWW-Authenticate: Bearer error="invalid_token"`; a valid token without the
// role → 403 `WWW-Authenticate: Bearer error="insufficient_scope"`.

import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Credentials } from "./credentials.js";
import { HttpError, StartupError } from "./errors.js";
import type { Authenticator, AuthSpec, CallContext, Requirement } from "./types.js";

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The 401 or 403 of a failed check. Callers that turn other failures into pages (a form
 * post's 422) must answer this one as it is, with its WWW-Authenticate header.
 */
export class AuthError extends HttpError {
  constructor(status: 401 | 403, message: string, challenge: string) {
    super(status, message, { headers: { "WWW-Authenticate": challenge } });
    this.name = "AuthError";
  }
}

interface TokenEntry {
  digest: Buffer;
  roles: ReadonlySet<string>;
}

/** The accepted tokens of `[auth]`, checked against each request that needs them. */
export class BearerTokens implements Authenticator {
  private readonly entries: readonly TokenEntry[];

  private constructor(entries: readonly TokenEntry[]) {
    this.entries = entries;
  }

  /**
   * Reads the credential's text: one token per line with optional roles. Throws a
   * StartupError naming the credential and line (never the token) for a line it refuses,
   * or when there is no token at all.
   */
  static parse(text: string, credential: string): BearerTokens {
    const entries: TokenEntry[] = [];
    const lines = text.split(/\r?\n/);
    lines.forEach((raw, i) => {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) return;
      const [token, ...roles] = line.split(/\s+/);
      if (!B64TOKEN.test(token)) {
        throw new StartupError(
          `credential "${credential}", line ${i + 1}: a bearer token may hold only letters, digits and - . _ ~ + / (then =), as RFC 6750 allows`,
        );
      }
      entries.push({ digest: digest(token), roles: new Set(roles) });
    });
    if (entries.length === 0) {
      throw new StartupError(
        `credential "${credential}" holds no bearer token: write one token per line, optionally followed by roles`,
      );
    }
    return new BearerTokens(entries);
  }

  check(req: IncomingMessage, requirement: Requirement): void {
    const token = bearerToken(req.headers.authorization);
    if (token === null) throw unauthorized(false);
    const roles = this.rolesOf(token);
    if (roles === null) throw unauthorized(true);
    if (requirement.kind === "role" && !roles.has(requirement.role)) {
      throw new AuthError(
        403,
        `this needs a token with the role "${requirement.role}"`,
        'Bearer error="insufficient_scope"',
      );
    }
  }

  /** The roles of `token` (every line it is on), or null when it is on none. Constant time in the token. */
  private rolesOf(token: string): Set<string> | null {
    const presented = digest(token);
    let found = false;
    const roles = new Set<string>();
    for (const entry of this.entries) {
      // Every entry is compared, match or not: the time taken says nothing about which matched.
      const match = timingSafeEqual(entry.digest, presented);
      if (match) {
        found = true;
        for (const role of entry.roles) roles.add(role);
      }
    }
    return found ? roles : null;
  }
}

/** The Authenticator for `[auth]`, from its credential's value (resolved at start). */
export function bearerAuth(spec: AuthSpec, credentials: Credentials): BearerTokens {
  return BearerTokens.parse(credentials.get(spec.bearer.credential), spec.bearer.credential);
}

/**
 * The check generated code runs first in an action with `requires` (and route files before
 * invoking one). Without an Authenticator in `ctx` it fails closed: a 401.
 */
export function authorize(ctx: CallContext, requirement: Requirement): void {
  if (ctx.auth === undefined || ctx.auth === null) throw unauthorized(false);
  ctx.auth.check(ctx.req, requirement);
}

/**
 * The token of an `Authorization: Bearer <token>` header; "" for a Bearer header without
 * a usable token; null when there is no header or it uses another scheme. The scheme is
 * case-insensitive (RFC 9110 §11.1).
 */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const value = header.trim();
  const space = value.search(/\s/);
  const scheme = space === -1 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== "bearer") return null;
  const token = space === -1 ? "" : value.slice(space + 1).trim();
  return B64TOKEN.test(token) ? token : "";
}

function unauthorized(tokenSent: boolean): AuthError {
  return tokenSent
    ? new AuthError(401, "invalid bearer token", 'Bearer error="invalid_token"')
    : new AuthError(401, "authentication required: send Authorization: Bearer <token>", "Bearer");
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}
