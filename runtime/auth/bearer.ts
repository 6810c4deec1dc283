// Bearer token lists (docs/language.md §6; RFC 6750). svc.toml `[auth] bearer = { credential =
// "api_tokens" }` names a credential holding one token per line, optionally followed by
// its roles: `token` or `token role [role…]`. Blank lines and lines starting with `#` are
// skipped.
//
// Tokens are kept only as SHA-256 digests and a presented token is compared, by digest, in
// constant time against every line: neither the comparison nor the number of lines tried
// depends on which token (if any) matched, or on how long it is.

import { createHash, timingSafeEqual } from "node:crypto";
import { StartupError } from "../core/errors.js";
import type { Caller } from "../contract/index.js";

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

interface TokenEntry {
  digest: Buffer;
  roles: ReadonlySet<string>;
}

/** The accepted tokens of `[auth] bearer`. */
export class BearerTokens {
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
          "SVC_ERR_AUTH_CONFIG",
          `credential "${credential}", line ${i + 1}: a bearer token may hold only letters, digits and - . _ ~ + / (then =), as RFC 6750 allows`,
        );
      }
      entries.push({ digest: digest(token), roles: new Set(roles) });
    });
    if (entries.length === 0) {
      throw new StartupError(
        "SVC_ERR_AUTH_CONFIG",
        `credential "${credential}" holds no bearer token: write one token per line, optionally followed by roles`,
      );
    }
    return new BearerTokens(entries);
  }

  /**
   * The caller a listed token stands for, or null when it is on no line. Its `id` is
   * `bearer:` and the first 16 hex digits of the token's SHA-256: stable, and useless for
   * guessing the token. Constant time in the token.
   */
  caller(token: string): Caller | null {
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
    return found ? { id: `bearer:${presented.toString("hex").slice(0, 16)}`, roles: [...roles], claims: {} } : null;
  }
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}
