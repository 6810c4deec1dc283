// JSON Web Tokens through jose (no hand-written JOSE): HS256 with a shared secret, EdDSA
// (Ed25519) or ES256 with a private key, each from a credential, and an outside identity
// provider's tokens through its JWKS URL (jwks.ts). Every verification names the one
// algorithm the configured key is for (an asymmetric key's public part is never accepted as
// an HS256 secret, and `alg: none` never verifies), checks exp and nbf with a small leeway,
// iss and aud, and then what jwt-checks.ts adds: one spelling per token, its `typ`, and an
// `iat` not in the future.
//
// A provider's caller is `<iss>#<sub>`, never the bare `sub`: a provider's user and one this
// server signed in itself are two callers, whatever their subjects (docs/auth.md).
//
// A verified token is remembered until its exp (1024 of them, oldest out first), so a
// client that sends the same token again costs one map lookup instead of a signature.

import { createHash, createPrivateKey, createPublicKey, createSecretKey, type KeyObject } from "node:crypto";
import type { JWTPayload, JWTVerifyResult } from "jose";
import { StartupError, SvcError } from "../core/errors.js";
import { jose, preloadJose } from "./jose.js";
import type { Credentials } from "../core/credentials.js";
import type { Caller, JwtSpec } from "../contract/index.js";
import { checkClaims, checkIssuedAt, checkType, InvalidToken, isCanonicalCompact } from "./jwt-checks.js";
import { KeysUnavailable, RemoteKeySet } from "./jwks.js";

export { InvalidToken } from "./jwt-checks.js";
export { KeysUnavailable } from "./jwks.js";

/** The asymmetric algorithms an outside provider may sign with; symmetric ones never (their key would be public). */
const JWKS_ALGORITHMS = ["EdDSA", "ES256", "ES384", "RS256", "PS256"];
const CACHE_SIZE = 1024;
/** Seconds of clock difference forgiven on exp, nbf and iat (`[auth.jwt] leeway`). */
export const DEFAULT_LEEWAY_S = 30;
const DEFAULT_COOLDOWN_MS = 30_000;

interface LocalKey {
  alg: "HS256" | "EdDSA" | "ES256";
  sign: KeyObject;
  verify: KeyObject;
  /** Asymmetric keys are named in the header, so a JWKS-verifying server can tell its own tokens apart. */
  kid: string | null;
}

export class Jwt {
  private readonly local: LocalKey | null;
  private readonly remote: RemoteKeySet | null;
  private readonly cache = new Map<string, { token: string; caller: Caller; exp: number }>();

  constructor(private readonly spec: JwtSpec, credentials: Credentials) {
    this.local = localKey(spec, credentials);
    this.remote = spec.jwksUrl === undefined ? null : new RemoteKeySet(new URL(spec.jwksUrl), spec.jwksCooldownMs ?? DEFAULT_COOLDOWN_MS);
    preloadJose();
  }

  get canIssue(): boolean {
    return this.local !== null;
  }

  /** A JWT for `subject`: sub, roles (when given), iat, exp, and iss/aud when configured. */
  async issue(subject: string, roles: readonly string[] | null): Promise<string> {
    const key = this.local;
    if (key === null) throw new SvcError("SVC_ERR_AUTH_NOT_CONFIGURED", "issue_token needs [auth.jwt] secret or private_key");
    const nowMs = Date.now();
    const now = Math.floor(nowMs / 1000);
    const claims: JWTPayload = roles === null ? {} : { [this.spec.rolesClaim]: [...roles] };
    const { SignJWT } = await jose();
    const jwt = new SignJWT(claims)
      .setProtectedHeader(key.kid === null ? { alg: key.alg, typ: "JWT" } : { alg: key.alg, typ: "JWT", kid: key.kid })
      .setSubject(subject)
      // To the millisecond (RFC 7519 §2 allows a fraction): a token issued just after a
      // revoke() in the same second is not refused with those issued just before it.
      .setIssuedAt(nowMs / 1000)
      .setExpirationTime(now + this.spec.lifetimeS);
    if (this.spec.issuer !== undefined) jwt.setIssuer(this.spec.issuer);
    if (this.spec.audience !== undefined) jwt.setAudience(this.spec.audience);
    return jwt.sign(key.sign);
  }

  /**
   * The caller of a token verified before and not yet expired; null otherwise. Keyed by the
   * end of the signature (random, and short, so the lookup hashes 24 characters, not the
   * whole token), and then compared whole.
   */
  known(token: string): Caller | null {
    const hit = this.cache.get(token.slice(-24));
    if (hit === undefined || hit.token !== token) return null;
    if (hit.exp * 1000 > Date.now()) return hit.caller;
    this.cache.delete(token.slice(-24));
    return null;
  }

  /** The caller a valid token stands for, from the cache when it was verified before; else rejects with InvalidToken. */
  verify(token: string): Promise<Caller> {
    const known = this.known(token);
    return known !== null ? Promise.resolve(known) : this.verifyFully(token);
  }

  /**
   * The start of the ids of a provider's callers (`<issuer>#`), which no subject this server
   * signs in may take; null without a provider.
   */
  get providerPrefix(): string | null {
    return this.remote === null || this.spec.issuer === undefined ? null : `${this.spec.issuer}#`;
  }

  private async verifyFully(token: string): Promise<Caller> {
    if (!isCanonicalCompact(token)) throw new InvalidToken("the token is not canonical base64url (one spelling per token, RFC 7515 §2)");
    const leeway = this.spec.leewayS ?? DEFAULT_LEEWAY_S;
    let verified: JWTVerifyResult;
    let own: boolean;
    // Outside the try: jose failing to load is the server's fault, not the token's.
    const loaded = jose();
    const { jwtVerify } = loaded instanceof Promise ? await loaded : loaded;
    try {
      const options = { issuer: this.spec.issuer, audience: this.spec.audience, requiredClaims: ["exp", "sub"], clockTolerance: leeway };
      const local = this.local;
      own = local !== null && (this.remote === null || headerKid(token) === local.kid);
      if (own) {
        verified = await jwtVerify(token, local!.verify, { ...options, algorithms: [local!.alg] });
      } else if (this.remote !== null) {
        verified = await jwtVerify(token, this.remote.getKey, { ...options, algorithms: JWKS_ALGORITHMS });
      } else {
        throw new InvalidToken("no key verifies this token");
      }
    } catch (err) {
      if (err instanceof InvalidToken || err instanceof KeysUnavailable) throw err;
      // jose's message says what was wrong (expired, bad signature, claim mismatch); it carries no secret.
      throw new InvalidToken(err instanceof Error ? err.message : "invalid token");
    }
    const payload = verified.payload;
    checkType(verified.protectedHeader, own);
    checkIssuedAt(payload, leeway, Math.floor(Date.now() / 1000));
    checkClaims(payload, this.spec.claims);
    const caller = callerOf(payload, this.spec.rolesClaim, own);
    this.remember(token, caller, payload.exp!);
    return caller;
  }

  private remember(token: string, caller: Caller, exp: number): void {
    if (this.cache.size >= CACHE_SIZE) {
      // Least recently added first out: Map keeps insertion order.
      this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(token.slice(-24), { token, caller, exp });
  }
}

/** A token's caller: its `sub`, or for a provider's token `<iss>#<sub>`. */
function callerOf(payload: JWTPayload, rolesClaim: string, own: boolean): Caller {
  if (typeof payload.sub !== "string" || payload.sub === "") throw new InvalidToken("the token has no subject");
  if (!own && (typeof payload.iss !== "string" || payload.iss === "")) throw new InvalidToken("the provider's token names no issuer (iss)");
  const raw = payload[rolesClaim];
  const roles = Array.isArray(raw) ? raw.filter((r): r is string => typeof r === "string") : typeof raw === "string" ? [raw] : [];
  return { id: own ? payload.sub : `${payload.iss}#${payload.sub}`, roles, claims: payload as Record<string, unknown> };
}

function headerKid(token: string): string | null {
  const dot = token.indexOf(".");
  if (dot <= 0) return null;
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, dot), "base64url").toString("utf8")) as unknown;
    return typeof header === "object" && header !== null && typeof (header as { kid?: unknown }).kid === "string"
      ? (header as { kid: string }).kid
      : null;
  } catch {
    return null;
  }
}

/** The configured signing key, read at start; a StartupError names what is wrong with it (never its value). */
function localKey(spec: JwtSpec, credentials: Credentials): LocalKey | null {
  if (spec.secret !== undefined) {
    const secret = Buffer.from(credentials.get(spec.secret), "utf8");
    if (secret.length < 32) {
      throw new StartupError(
        "SVC_ERR_AUTH_CONFIG",
        `credential "${spec.secret}" ([auth.jwt] secret) is ${secret.length} bytes: an HS256 secret needs at least 32 (e.g. openssl rand -base64 48)`,
      );
    }
    const key = createSecretKey(secret);
    return { alg: "HS256", sign: key, verify: key, kid: null };
  }
  if (spec.privateKey !== undefined) {
    let sign: KeyObject;
    try {
      sign = createPrivateKey({ key: credentials.get(spec.privateKey), format: "pem" });
    } catch {
      throw new StartupError("SVC_ERR_AUTH_CONFIG", `credential "${spec.privateKey}" ([auth.jwt] private_key) is not a PEM private key`);
    }
    const type = sign.asymmetricKeyType;
    const curve = sign.asymmetricKeyDetails?.namedCurve;
    const alg = type === "ed25519" ? "EdDSA" : type === "ec" && curve === "prime256v1" ? "ES256" : null;
    if (alg === null) {
      throw new StartupError(
        "SVC_ERR_AUTH_CONFIG",
        `credential "${spec.privateKey}" ([auth.jwt] private_key) is a ${type ?? "unknown"}${curve ? ` (${curve})` : ""} key: use Ed25519 (EdDSA) or P-256 (ES256)`,
      );
    }
    const verify = createPublicKey(sign);
    const der = verify.export({ format: "der", type: "spki" });
    const kid = `svc-${createHash("sha256").update(der).digest("base64url").slice(0, 16)}`;
    return { alg, sign, verify, kid };
  }
  return null;
}
