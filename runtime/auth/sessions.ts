// Server-side sessions for pages (docs/language.md §6): a row in `svc_sessions` per sign-in, found
// by the SHA-256 of the cookie's random value. Server-side rather than a signed cookie or
// a per-user version: signing out deletes the row, so a copied cookie stops working at
// once, for that one session only (other devices stay signed in), and a leaked database
// holds no usable cookie. Every sign-in makes a new random id (no fixation).

import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Caller, Database, Executor, SessionSpec } from "../types.js";
import { cookieName, clearCookie, plainLoopback, readCookie, setCookie } from "./cookies.js";

/** What the cookie carries: 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export class Sessions {
  constructor(
    private readonly spec: SessionSpec,
    private readonly db: Database,
  ) {}

  /** The session cookie's value in this request, when it has a well-formed one. */
  token(req: IncomingMessage): string | null {
    const header = req.headers.cookie;
    if (header === undefined) return null;
    const value = readCookie(header, cookieName(req, this.spec.cookie));
    // Over plain-HTTP loopback the `__Host-` name is not readable by the browser anyway; elsewhere
    // only the prefixed name counts, so a cookie planted without the prefix is ignored.
    return value !== null && TOKEN.test(value) ? value : null;
  }

  /** The caller of a live session, or null (unknown, ended or expired). */
  async caller(token: string): Promise<Caller | null> {
    const row = await this.db.one(this.spec.statements.find, [digest(token)]);
    if (row === null || typeof row.subject !== "string") return null;
    if (!(String(row.expires_at) > new Date().toISOString())) return null;
    return { id: row.subject, roles: parseRoles(row.roles), claims: {} };
  }

  /** Inserts a new session on `tx` (the action's transaction); returns the Set-Cookie value. */
  async start(tx: Executor, req: IncomingMessage, subject: string, roles: readonly string[] | null): Promise<{ id: string; cookie: string }> {
    const old = this.token(req);
    if (old !== null) await tx.run(this.spec.statements.end, [digest(old)]);
    const token = randomBytes(32).toString("base64url");
    const now = new Date();
    const expires = new Date(now.getTime() + this.spec.lifetimeS * 1000);
    await tx.run(this.spec.statements.create, [digest(token), subject, JSON.stringify(roles ?? []), now.toISOString(), expires.toISOString()]);
    return { id: token, cookie: setCookie(req, this.spec.cookie, token, this.spec.lifetimeS) };
  }

  /** Deletes the request's session, if any; returns whether there was one, and the clearing Set-Cookie. */
  async end(tx: Executor, req: IncomingMessage): Promise<{ ended: boolean; cookie: string }> {
    const token = this.token(req);
    const ended = token !== null && (await tx.run(this.spec.statements.end, [digest(token)])) > 0;
    return { ended, cookie: clearCookie(req, this.spec.cookie) };
  }

  clear(req: IncomingMessage): string {
    return clearCookie(req, this.spec.cookie);
  }

  secure(req: IncomingMessage): boolean {
    return !plainLoopback(req);
  }
}

function digest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function parseRoles(raw: unknown): string[] {
  if (typeof raw !== "string") return [];
  try {
    const roles = JSON.parse(raw) as unknown;
    return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === "string") : [];
  } catch {
    return [];
  }
}
