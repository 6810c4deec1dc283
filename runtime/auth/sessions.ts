// Server-side sessions for pages (docs/language.md §6): a row in `svc_sessions` per sign-in, found
// by the SHA-256 of the cookie's random value. Server-side rather than a signed cookie or
// a per-user version: signing out deletes the row, so a copied cookie stops working at
// once, for that one session only (other devices stay signed in), and a leaked database
// holds no usable cookie. Every sign-in makes a new random id (no fixation).
//
// `expires_at` is the one deadline a lookup compares: the absolute one (created_at +
// lifetime), or with `idle` the earlier of that and last use + idle. A use moves the idle
// deadline only when it has aged by TOUCH_MAX_MS (or a quarter of `idle`, when shorter), so
// a busy session costs one write a minute, not one per request; the deadline is in the row,
// so every process sees it. Expired rows are deleted at most once a minute per process.

import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Logger } from "../core/log.js";
import type { SiteOptions } from "../contract/index.js";
import type { Caller, Database, Executor, SessionSpec } from "../contract/index.js";
import { type CurrentSpan, viewUnder } from "../lang/trace-context.js";
import { cookieName, clearCookie, plainLoopback, readCookie, setCookie } from "./cookies.js";
import { sessionStatements } from "./sessions-table.js";

/** What the cookie carries: 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** The most a session's idle deadline may lag its last use: one write per session a minute at most. */
export const TOUCH_MAX_MS = 60_000;
/** The least time between two sweeps of expired sessions by one process. */
export const SESSION_SWEEP_MS = 60_000;

export class Sessions {
  private readonly touchMs: number;
  private nextSweep = 0;

  constructor(
    private readonly spec: SessionSpec,
    private readonly db: Database,
    private readonly site?: SiteOptions,
    private readonly log?: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.touchMs = spec.idleS === undefined ? 0 : Math.min(TOUCH_MAX_MS, (spec.idleS * 1000) / 4);
  }

  /** The session cookie's value in this request, when it has a well-formed one. */
  token(req: IncomingMessage): string | null {
    const header = req.headers.cookie;
    if (header === undefined) return null;
    const value = readCookie(header, cookieName(req, this.spec.cookie, this.site));
    // Over plain-HTTP loopback the `__Host-` name is not readable by the browser anyway; elsewhere
    // only the prefixed name counts, so a cookie planted without the prefix is ignored.
    return value !== null && TOKEN.test(value) ? value : null;
  }

  /**
   * The caller of a live session, or null (unknown, ended, expired or idle too long). `span`:
   * the request's, when traced, whose children the lookup and the touch are.
   */
  async caller(token: string, span?: CurrentSpan): Promise<Caller | null> {
    const id = digest(token);
    const db = viewUnder(this.db, span);
    const row = await db.one(sessionStatements.find, [id]);
    const now = this.clock();
    this.maybeSweep(now);
    if (row === null || typeof row.subject !== "string") return null;
    const expires = String(row.expires_at);
    if (!(expires > new Date(now).toISOString())) return null;
    if (this.spec.idleS !== undefined) this.maybeTouch(db, id, row.created_at, expires, now);
    return { id: row.subject, roles: parseRoles(row.roles), claims: {} };
  }

  /** Inserts a new session on `tx` (the action's transaction); returns the Set-Cookie value. */
  async start(tx: Executor, req: IncomingMessage, subject: string, roles: readonly string[] | null): Promise<{ id: string; cookie: string }> {
    const old = this.token(req);
    if (old !== null) await tx.run(sessionStatements.end, [digest(old)]);
    const token = randomBytes(32).toString("base64url");
    const now = this.clock();
    const expires = this.deadline(now, now);
    await tx.run(sessionStatements.create, [digest(token), subject, JSON.stringify(roles ?? []), new Date(now).toISOString(), new Date(expires).toISOString()]);
    return { id: token, cookie: setCookie(req, this.spec.cookie, token, this.spec.lifetimeS, this.site) };
  }

  /** Deletes the request's session, if any; returns whether there was one, and the clearing Set-Cookie. */
  async end(tx: Executor, req: IncomingMessage): Promise<{ ended: boolean; cookie: string }> {
    const token = this.token(req);
    const ended = token !== null && (await tx.run(sessionStatements.end, [digest(token)])) > 0;
    return { ended, cookie: clearCookie(req, this.spec.cookie, this.site) };
  }

  /** Deletes every session of `subject` but the one `req` came with; how many. */
  endSubject(tx: Executor, req: IncomingMessage, subject: string): Promise<number> {
    const kept = this.token(req);
    return tx.run(sessionStatements.endSubject, [subject, kept === null ? "" : digest(kept)]);
  }

  clear(req: IncomingMessage): string {
    return clearCookie(req, this.spec.cookie, this.site);
  }

  secure(req: IncomingMessage): boolean {
    return !plainLoopback(req, this.site);
  }

  /** The deadline of a session started at `startedMs` and last used at `usedMs`. */
  private deadline(startedMs: number, usedMs: number): number {
    const absolute = startedMs + this.spec.lifetimeS * 1000;
    return this.spec.idleS === undefined ? absolute : Math.min(absolute, usedMs + this.spec.idleS * 1000);
  }

  /** Moves the idle deadline when it lags this use by touchMs or more; in the background (a failure costs at most one early end). */
  private maybeTouch(db: Database, id: string, createdAt: unknown, expires: string, now: number): void {
    const next = this.deadline(Date.parse(String(createdAt)), now);
    if (next - Date.parse(expires) < this.touchMs) return;
    db.run(sessionStatements.touch, [new Date(next).toISOString(), id]).catch((err: unknown) =>
      this.log?.warn("could not record a session's use", { error: err instanceof Error ? err.message : String(err) }),
    );
  }

  /** Deletes expired sessions at most once per SESSION_SWEEP_MS, in the background; a failure is logged and retried later. */
  private maybeSweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SESSION_SWEEP_MS;
    this.db.run(sessionStatements.sweep, [new Date(now).toISOString()]).then(
      (deleted) => {
        if (deleted > 0) this.log?.debug("expired sessions deleted", { deleted });
      },
      (err: unknown) => this.log?.warn("could not delete expired sessions", { error: err instanceof Error ? err.message : String(err) }),
    );
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
