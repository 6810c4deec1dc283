// The runtime's public surface: what generated servers (and svc-server / svc dev) import.
// Argument checks come as one namespace so generated validators read
// `arg.int(a.limit, "limit", t)` without colliding with argument names.

export type * from "./types.js";
export type * from "./pages/types.js";
export { HttpError, Fail, StartupError, ValidationError } from "./errors.js";
export { headerText, RequestView, sendShaped, sendShapedError } from "./respond.js";
export * as arg from "./args.js";
export * as expect from "./expect.js";
export * as shape from "./shape.js";
export * as lists from "./lists.js";
export type { ArgCheck } from "./args.js";
export { newId, createIdGenerator, isUlid, ulidTime, type IdGenerator } from "./ids.js";
export { now } from "./time.js";
export { parseTimestamp } from "./timestamp.js";
export { sendData, sendOk, sendError } from "./envelope.js";
export { createLogger, Logger, LOG_LEVELS, requestIdFrom, type LogFields, type LogSink } from "./log.js";
export { parseServerArgs, parseListen, helpText, BUILTIN_DEFAULTS } from "./options.js";
export { Router, type MatchResult } from "./router.js";
export { createHandler, createServer, type Handler } from "./server.js";
export { main, start, isEntry, type Running, type RunningServer, type MainHooks, type OpenDatabase } from "./main.js";
export { trim, lower, upper, len, concat, member, slug, replace, startsWith, endsWith, contains, substr } from "./builtins.js";
export { notNull, oneOf, oneOfOrNull, toBool, fromJson, toJson } from "./record.js";
export {
  authorize, callerOf, issueToken, startSession, endSession, hashPassword, hashPasswordOrNull, verifyPassword,
  BearerTokens, AuthError, Identity,
} from "./auth/index.js";
export { resolveCredentials, fallbackEnvName, Credentials } from "./credentials.js";
export { webhookEndpoints, WebhookReply } from "./webhooks/index.js";
export * as app from "./pages/call.js";
export * as jq from "./jq/index.js";
