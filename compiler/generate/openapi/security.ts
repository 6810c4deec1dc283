// `[auth]` as OpenAPI security schemes (docs/auth.md): a bearer list and JWTs are HTTP
// `Authorization` schemes, one per accepted scheme word; sessions are a cookie. An
// operation lists every scheme that can satisfy it: any one of them does, and one open to
// everyone says so with `security: []`, so tools need not guess.
//
// Only `Bearer` is a registered HTTP authentication scheme (RFC 6750); another word such as
// RealWorld's `Token` is described as an `apiKey` in the `Authorization` header, the value
// being the word, a space and the token, which is how RealWorld's own spec says it and what
// validating tools (Prism) can check.

import type { Model } from "../../analyze/model/model.js";
import type { ApiSecurity } from "./operations.js";
import type { Schema } from "./schema.js";

/** `bearer`, `jwt`, then `bearerToken`, `jwtToken` for a second scheme word, and `session`. */
export function securitySchemes(model: Model): Schema {
  const auth = model.auth;
  const out: Schema = {};
  if (auth === undefined) return out;
  const words = auth.schemes ?? ["Bearer"];
  const schemeName = (base: string, word: string) => (word.toLowerCase() === "bearer" ? base : `${base}${word[0].toUpperCase()}${word.slice(1).toLowerCase()}`);
  if (auth.bearer) {
    for (const w of words) {
      out[schemeName("bearer", w)] = headerScheme(w, `A token of the list in credential \`${auth.bearer.credential}\`: \`Authorization: ${w} <token>\`.`);
    }
  }
  if (auth.jwt) {
    for (const w of words) {
      const s = headerScheme(w, `A JWT this server issued or trusts: \`Authorization: ${w} <jwt>\`.`);
      out[schemeName("jwt", w)] = s.type === "http" ? { type: "http", scheme: "bearer", bearerFormat: "JWT", description: s.description } : s;
    }
  }
  if (auth.sessions) {
    out.session = { type: "apiKey", in: "cookie", name: auth.sessions.cookie, description: "The session cookie a sign-in sets." };
  }
  return out;
}

/** `Bearer` as the HTTP scheme it is; any other word as the header it is sent in. */
function headerScheme(word: string, description: string): Schema {
  if (word.toLowerCase() === "bearer") return { type: "http", scheme: "bearer", description };
  return { type: "apiKey", in: "header", name: "Authorization", description: `${description} The header's value is \`${word}\`, a space, then the token.` };
}

/**
 * An operation's `security`: any scheme satisfies a requirement (a role travels in the
 * list, as OpenAPI 3.1 allows for non-OAuth schemes); `{}` first where anyone may call
 * but a credential changes the answer; `[]` where the caller does not matter.
 */
export function securityRequirements(model: Model, securities: ApiSecurity[]): Schema[] {
  const schemes = Object.keys(securitySchemes(model));
  if (schemes.length === 0) return [];
  const required = securities.find((s) => s.kind === "required");
  const everyRequired = securities.every((s) => s.kind === "required");
  if (required && required.kind === "required" && everyRequired) {
    const roles = required.requires.kind === "role" ? [required.requires.role] : [];
    return schemes.map((s) => ({ [s]: roles }));
  }
  if (securities.some((s) => s.kind !== "none")) return [{}, ...schemes.map((s) => ({ [s]: [] }))];
  return [];
}
