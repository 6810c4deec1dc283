// Who is calling (docs/language.md §6), decided once per request before any endpoint runs:
//
// - no `Authorization` header and no session cookie: anonymous (one header lookup each);
// - `Authorization: <scheme> <token>` with an accepted scheme word: a token of the
//   `[auth] bearer` list, else a JWT `[auth.jwt]` verifies; anything else that was sent (an
//   unknown token, a bad signature, an expired token, another scheme, two headers) is a 401
//   with `WWW-Authenticate: <scheme> error="invalid_token"`, on every path, whether or not
//   the endpoint needs a caller. A token in the query string is never read.
// - a session cookie of a live session: that session's subject. A stale cookie (ended,
//   expired, unknown) is anonymous and is cleared: a browser cannot drop it by itself, and
//   a 401 on every page would lock it out of the site.
// - a JWT whose subject was revoked after the token was issued (runtime/revocation) is an
//   invalid token, like an expired one.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Credentials } from "../core/credentials.js";
import { type ErrorCode, HttpError, SvcError } from "../core/errors.js";
import type { Logger } from "../core/log.js";
import type { SiteOptions } from "../contract/index.js";
import { Revocations } from "../revocation/index.js";
import type { AuthSpec, CallContext, Caller, Database, Executor, IdentityService, Requirement } from "../contract/index.js";
import { B64TOKEN, BearerTokens } from "./bearer.js";
import { InvalidToken, Jwt, KeysUnavailable } from "./jwt.js";
import { Sessions } from "./sessions.js";
import type { CurrentSpan } from "../lang/trace-context.js";

/** The 401 or 403 of a failed check, with its challenge. A form post's failure page passes it on as it is. */
export class AuthError extends HttpError {
  constructor(code: ErrorCode, status: 400 | 401 | 403, message: string, challenge: string) {
    super(status, message, { code, headers: { "WWW-Authenticate": challenge } });
    this.name = "AuthError";
  }
}

export class Identity implements IdentityService {
  private readonly bearer: BearerTokens | null;
  private readonly jwt: Jwt | null;
  private readonly sessions: Sessions | null;
  private readonly revocations: Revocations | null;
  /** Lower-cased accepted scheme words. */
  private readonly schemes: readonly string[];
  /** The scheme challenges name: the first accepted one, as written. */
  readonly scheme: string;

  constructor(spec: AuthSpec, credentials: Credentials, db: Database, options: { site?: SiteOptions; log?: Logger } = {}) {
    this.bearer = spec.bearer === undefined ? null : BearerTokens.parse(credentials.get(spec.bearer.credential), spec.bearer.credential);
    this.jwt = spec.jwt === undefined ? null : new Jwt(spec.jwt, credentials);
    this.sessions = spec.sessions === undefined ? null : new Sessions(spec.sessions, db, options.site, options.log);
    this.revocations = spec.jwt === undefined ? null : new Revocations(db, options.log ?? null, spec.jwt.lifetimeS);
    const schemes = spec.schemes ?? ["Bearer"];
    this.schemes = schemes.map((s) => s.toLowerCase());
    this.scheme = schemes[0];
  }

  /**
   * The caller of `req`: null when anonymous; a Promise only when a session or a JWT not
   * seen before must be looked up. Throws the 401 (or 400) for a credential sent and refused.
   * `span`: the request's, when traced, whose child a session's lookup is.
   */
  resolve(req: IncomingMessage, res: ServerResponse, span?: CurrentSpan): Caller | null | Promise<Caller | null> {
    const header = req.headers.authorization;
    if (header !== undefined) return this.fromHeader(req, header);
    if (this.sessions === null || req.headers.cookie === undefined) return null;
    const token = this.sessions.token(req);
    return token === null ? null : this.fromSession(token, req, res, span);
  }

  private async fromSession(token: string, req: IncomingMessage, res: ServerResponse, span: CurrentSpan | undefined): Promise<Caller | null> {
    const caller = await this.sessions!.caller(token, span);
    if (caller === null) res.setHeader("Set-Cookie", this.sessions!.clear(req));
    return caller;
  }

  private fromHeader(req: IncomingMessage, header: string): Caller | Promise<Caller> {
    // Node keeps only the first of repeated Authorization headers; the raw list has them all.
    let count = 0;
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 13 && raw[i].toLowerCase() === "authorization") count++;
    if (count > 1) throw new AuthError("SVC_ERR_AUTH_HEADER", 400, "send one Authorization header, not several", `${this.scheme} error="invalid_request"`);
    const value = isBlank(header, 0) || isBlank(header, header.length - 1) ? header.trim() : header;
    const space = value.indexOf(" ");
    const scheme = (space === -1 ? value : value.slice(0, space)).toLowerCase();
    if (!this.schemes.includes(scheme)) {
      throw this.invalid(`the Authorization scheme is not accepted: send ${this.scheme} <token>`);
    }
    const token = space === -1 ? "" : isBlank(value, space + 1) ? value.slice(space + 1).trim() : value.slice(space + 1);
    // A JWT verified before (the common case: a client sends its token on every call) is one lookup.
    const known = this.jwt?.known(token);
    if (known !== undefined && known !== null) return this.unrevoked(known);
    if (!B64TOKEN.test(token)) throw this.invalid("the Authorization header holds no token");
    const listed = this.bearer?.caller(token) ?? null;
    if (listed !== null) return listed;
    if (this.jwt === null || !isCompactJws(token)) throw this.invalid("invalid token");
    return this.jwt.verify(token).then(
      (caller) => this.unrevoked(caller),
      (err: unknown) => this.rethrow(err),
    );
  }

  /** The JWT's caller, unless its subject was revoked after the token was issued. */
  private unrevoked(caller: Caller): Caller | Promise<Caller> {
    const stands = this.revocations!.stands(caller.id, caller.claims.iat);
    if (stands === true) return caller;
    if (stands === false) throw this.invalid("invalid token: revoked; sign in again");
    return stands.then(
      (ok) => {
        if (!ok) throw this.invalid("invalid token: revoked; sign in again");
        return caller;
      },
      (err: unknown) => {
        throw new HttpError(503, "cannot check the token now: the revocation list cannot be read", { code: "SVC_ERR_AUTH_UNAVAILABLE", cause: err });
      },
    );
  }

  private rethrow(err: unknown): never {
    if (err instanceof InvalidToken) throw this.invalid(`invalid token: ${err.message}`);
    // The client's token may be fine: a 503 says to try again, where a 401 would say to sign in again.
    if (err instanceof KeysUnavailable) throw new HttpError(503, "cannot check the token now: the identity provider's keys cannot be fetched", { code: "SVC_ERR_AUTH_UNAVAILABLE" });
    throw err;
  }

  private invalid(message: string): AuthError {
    return new AuthError("SVC_ERR_UNAUTHENTICATED", 401, message, `${this.scheme} error="invalid_token"`);
  }

  /** The 401 of a call that needs a caller and has none. */
  required(): AuthError {
    const how = this.sessions !== null && this.bearer === null && this.jwt === null ? "sign in" : `send Authorization: ${this.scheme} <token>`;
    return new AuthError("SVC_ERR_UNAUTHENTICATED", 401, `authentication required: ${how}`, this.scheme);
  }

  issueToken(subject: string, roles: readonly string[] | null): Promise<string> {
    if (this.jwt === null || !this.jwt.canIssue) throw new SvcError("SVC_ERR_AUTH_NOT_CONFIGURED", "issue_token needs [auth.jwt] secret or private_key");
    this.checkSubject(subject);
    return this.jwt.issue(subject, roles);
  }

  async startSession(tx: Executor, ctx: CallContext, subject: string, roles: readonly string[] | null): Promise<string> {
    if (this.sessions === null) throw new SvcError("SVC_ERR_AUTH_NOT_CONFIGURED", "start_session needs [auth.sessions]");
    this.checkSubject(subject);
    const started = await this.sessions.start(tx, ctx.req, subject, roles);
    (ctx.cookies ??= []).push(started.cookie);
    // The id is the cookie's secret: the action gets the subject back, never the id.
    return subject;
  }

  /**
   * A subject this server signs in may not take the form of another kind of caller's id
   * (docs/auth.md, "Who the caller is"): else a local account named like a provider's user
   * would be that user, to every `auth.id` check, idempotency key and row it owns.
   */
  private checkSubject(subject: string): void {
    const prefix = this.jwt?.providerPrefix ?? null;
    if (prefix !== null && subject.startsWith(prefix)) {
      throw new HttpError(400, `a subject may not begin with "${prefix}": that is how the identity provider's callers are named`, { code: "SVC_ERR_SUBJECT_RESERVED" });
    }
    if (this.bearer !== null && subject.startsWith("bearer:")) {
      throw new HttpError(400, 'a subject may not begin with "bearer:": that is how the callers of the [auth] bearer list are named', { code: "SVC_ERR_SUBJECT_RESERVED" });
    }
  }

  async endSession(tx: Executor, ctx: CallContext): Promise<boolean> {
    if (this.sessions === null) throw new SvcError("SVC_ERR_AUTH_NOT_CONFIGURED", "end_session needs [auth.sessions]");
    const ended = await this.sessions.end(tx, ctx.req);
    (ctx.cookies ??= []).push(ended.cookie);
    return ended.ended;
  }

  /**
   * Ends every session of `subject` but the request's own ("everywhere else": end_session
   * ends that one too) and refuses the subject's JWTs issued before now, the caller's own
   * included (issue_token gives a new one). Returns how many sessions ended.
   */
  async revoke(tx: Executor, ctx: CallContext, subject: string): Promise<number> {
    if (this.revocations !== null) await this.revocations.revoke(tx, subject);
    return this.sessions === null ? 0 : this.sessions.endSubject(tx, ctx.req, subject);
  }
}

function isBlank(s: string, at: number): boolean {
  const c = s.charCodeAt(at);
  return c === 32 || c === 9;
}

/** Three dot-separated parts, as a signed JWT has. */
function isCompactJws(token: string): boolean {
  const first = token.indexOf(".");
  const second = first === -1 ? -1 : token.indexOf(".", first + 1);
  return second !== -1 && token.indexOf(".", second + 1) === -1;
}

/**
 * The check generated code runs first in an action with `requires` (route files reach it
 * through the action's endpoint). Without identity in the server it fails closed: a 401.
 */
export function authorize(ctx: CallContext, requirement: Requirement): void {
  const caller = ctx.caller;
  const identity = ctx.identity as Identity | null | undefined;
  if (caller === undefined || caller === null) {
    throw identity instanceof Identity ? identity.required() : new AuthError("SVC_ERR_UNAUTHENTICATED", 401, "authentication required", "Bearer");
  }
  if (requirement.kind === "role" && !caller.roles.includes(requirement.role)) {
    const scheme = identity instanceof Identity ? identity.scheme : "Bearer";
    throw new AuthError("SVC_ERR_FORBIDDEN", 403, `this needs the role "${requirement.role}"`, `${scheme} error="insufficient_scope"`);
  }
}

/** `auth` in generated code; null when anonymous or when the server has no identity. */
export function callerOf(ctx: CallContext): Caller | null {
  return ctx.caller ?? null;
}

/** `issue_token(subject[, roles])` in an action. */
export function issueToken(ctx: CallContext, subject: string, roles: readonly string[] | null = null): Promise<string> {
  if (!ctx.identity) throw new SvcError("SVC_ERR_AUTH_NOT_CONFIGURED", "issue_token needs [auth.jwt]");
  return ctx.identity.issueToken(subject, roles);
}

/** `start_session(subject[, roles])` in an action. */
export function startSession(tx: Executor, ctx: CallContext, subject: string, roles: readonly string[] | null = null): Promise<string> {
  if (!ctx.identity) throw new SvcError("SVC_ERR_AUTH_NOT_CONFIGURED", "start_session needs [auth.sessions]");
  return ctx.identity.startSession(tx, ctx, subject, roles);
}

/** `revoke(subject)` in an action. */
export function revoke(tx: Executor, ctx: CallContext, subject: string): Promise<number> {
  if (!ctx.identity) throw new SvcError("SVC_ERR_AUTH_NOT_CONFIGURED", "revoke needs [auth.jwt] or [auth.sessions]");
  return ctx.identity.revoke(tx, ctx, subject);
}

/** `end_session()` in an action. */
export function endSession(tx: Executor, ctx: CallContext): Promise<boolean> {
  if (!ctx.identity) throw new SvcError("SVC_ERR_AUTH_NOT_CONFIGURED", "end_session needs [auth.sessions]");
  return ctx.identity.endSession(tx, ctx);
}
