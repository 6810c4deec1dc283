// An outside identity provider's key set (docs/auth.md, "An outside identity provider"),
// fetched here rather than by jose's createRemoteJWKSet, for three things jose does not do:
//
// - the refetch cooldown holds after a failed fetch too: a burst of tokens naming unknown
//   `kid`s makes at most one fetch per cooldown, whether the provider answers or not (jose
//   leaves its cooldown unset when a fetch fails, so every such token fetched again);
// - the body is read up to JWKS_MAX_BYTES and the set holds at most JWKS_MAX_KEYS keys,
//   so a provider (or whoever answers at its URL) cannot make the server hold or parse an
//   unbounded document;
// - redirects are not followed: the key set comes from the configured URL, not from where
//   it points (an https URL redirecting to http would undo the https check at build time).
//
// Selecting the key a token names (kid, alg, kty, use) stays jose's: createLocalJWKSet.

import type { JSONWebKeySet, JWTVerifyGetKey } from "jose";
import { SvcError } from "../core/errors.js";
import { jose } from "./jose.js";

/** A key set larger than this is refused: the largest public providers' sets are some 15 KiB. */
export const JWKS_MAX_BYTES = 128 * 1024;
/** A key set with more keys than this is refused: providers publish a handful (current, next, previous). */
export const JWKS_MAX_KEYS = 32;
/** How long a fetched set is used before it is fetched again, as jose's default. */
const MAX_AGE_MS = 10 * 60_000;
const TIMEOUT_MS = 5_000;

/** The provider's key set could not be fetched: its tokens cannot be judged, which is not their fault. */
export class KeysUnavailable extends Error {}

type Fetch = typeof fetch;

export class RemoteKeySet {
  private select: JWTVerifyGetKey | null = null;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  /** The last fetch, answered or not: the cooldown counts from here. */
  private attemptedAt = Number.NEGATIVE_INFINITY;
  /** Why the last fetch failed; null once one succeeds. */
  private failure: KeysUnavailable | null = null;
  /** A fetch under way, which every token that needs the set meanwhile waits for. */
  private pending: Promise<void> | null = null;

  constructor(
    private readonly url: URL,
    private readonly cooldownMs: number,
    private readonly fetcher: Fetch = fetch,
  ) {}

  /** For jose's jwtVerify: the key the token's header names; KeysUnavailable when the set cannot be had. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    if (this.select === null || Date.now() - this.fetchedAt >= MAX_AGE_MS) await this.refresh();
    try {
      return await this.select!(header, token);
    } catch (err) {
      // A kid the set lacks may be the provider's new key: fetch again, once per cooldown.
      if (!(err instanceof (await jose()).errors.JWKSNoMatchingKey)) throw err;
      if (this.pending === null && !this.mayFetch()) {
        // The last fetch failed: the token may be fine, the server cannot tell.
        if (this.failure !== null) throw this.failure;
        throw err;
      }
      await this.refresh();
      return this.select!(header, token);
    }
  };

  private mayFetch(): boolean {
    return Date.now() - this.attemptedAt >= this.cooldownMs;
  }

  /** Fetches the set, unless a fetch is under way (then waits for it) or the cooldown forbids one. */
  private async refresh(): Promise<void> {
    if (this.pending === null) {
      if (!this.mayFetch()) {
        if (this.failure !== null) throw this.failure;
        return;
      }
      this.attemptedAt = Date.now();
      this.pending = this.load().finally(() => (this.pending = null));
    }
    await this.pending;
    if (this.failure !== null) throw this.failure;
  }

  private async load(): Promise<void> {
    try {
      const set = await this.fetchSet();
      this.select = (await jose()).createLocalJWKSet(set);
      this.fetchedAt = Date.now();
      this.failure = null;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.failure = new KeysUnavailable(`the identity provider's keys cannot be fetched: ${why}`, { cause: err });
    }
  }

  private async fetchSet(): Promise<JSONWebKeySet> {
    const answer = await this.fetcher(this.url, {
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { accept: "application/json" },
    });
    if (answer.status !== 200) {
      await answer.body?.cancel();
      throw new SvcError("SVC_ERR_JWKS", `${this.url.href} answered ${answer.status}`);
    }
    const declared = Number(answer.headers.get("content-length"));
    if (declared > JWKS_MAX_BYTES) {
      await answer.body?.cancel();
      throw new SvcError("SVC_ERR_JWKS", `the key set is ${declared} bytes, over ${JWKS_MAX_BYTES}`);
    }
    const set = JSON.parse(await boundedText(answer, JWKS_MAX_BYTES)) as unknown;
    const keys = typeof set === "object" && set !== null ? (set as { keys?: unknown }).keys : undefined;
    if (!Array.isArray(keys) || !keys.every((k) => typeof k === "object" && k !== null && !Array.isArray(k))) {
      throw new SvcError("SVC_ERR_JWKS", "the answer is not a key set ({\"keys\": [...]})");
    }
    if (keys.length > JWKS_MAX_KEYS) throw new SvcError("SVC_ERR_JWKS", `the key set holds ${keys.length} keys, over ${JWKS_MAX_KEYS}`);
    return { keys: keys as JSONWebKeySet["keys"] };
  }
}

/** The body as UTF-8, read chunk by chunk and abandoned past `max` bytes (a Content-Length can lie or be absent). */
async function boundedText(answer: Response, max: number): Promise<string> {
  if (answer.body === null) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of answer.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) throw new SvcError("SVC_ERR_JWKS", `the key set is over ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
