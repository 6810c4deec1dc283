// The runtime's public surface: exactly what generated servers and `main` use (svc-server
// and svc dev load the same module). Everything else is imported from its own file by the
// code that needs it. Argument checks come as one namespace so generated validators read
// `arg.int(a.limit, "limit", input.text)` without colliding with argument names.

export type * from "./contract/index.js";
export type { FileValue, UploadsSpec } from "./uploads/index.js";
export type { MainHooks, OpenDatabase, Running, RunningServer } from "./start/main.js";
export { main, isEntry } from "./start/main.js";
export { HttpError, Fail } from "./core/errors.js";
export { headerText } from "./core/answer/index.js";
export { answerHtml, answerText } from "./core/answer/index.js";
export * as values from "./values/index.js";
export { newId } from "./lang/ids.js";
export { uuid4, uuid7 } from "./keys/uuid.js";
export { whenRead } from "./db/awaitable.js";
export { jsonValue, jsonRows, jsonRowOrNull } from "./core/answer/index.js";
export { now } from "./core/time.js";
export * from "./lang/index.js";
export { authorize, issueToken, startSession, endSession, revoke, hashPassword, hashPasswordOrNull, passwordTransaction, verifyPassword } from "./auth/index.js";
export * as app from "./pages/call.js";
export { verifyPasswordThrottled } from "./limits/index.js";
export * as jq from "./jq/index.js";
export * as uploads from "./uploads/index.js";
export { enqueue } from "./jobs/enqueue.js";
export { emit } from "./outbox/emit.js";
