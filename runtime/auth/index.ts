// Identity (docs/language.md §6): bearer token lists, JWTs, sessions, passwords, and the caller.

export { AuthError, Identity, authorize, callerOf, endSession, issueToken, revoke, startSession } from "./identity.js";
export { BearerTokens } from "./bearer.js";
export { hashPassword, hashPasswordOrNull, passwordTransaction, type Rehash, verifyPassword } from "./password-work.js";
