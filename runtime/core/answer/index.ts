// The one answer API: every answer a server sends is written by a function of this family.
// A whole answer goes out through `sendWhole` (answer.ts); the JSON envelope, on the hot path,
// through `writeJsonHead`, a head Node need not check again (trusted-head.ts). The rest
// says what goes in the body: the envelope (envelope.ts), a shaped answer or the app's error
// shape (shaped.ts), the error answers chosen at start (error-answers.ts), text and HTML (text.ts),
// JSON text written by generated code (json-text.ts), streamed rows (stream/), and the
// headers every HTML answer carries (html-headers.ts).

export { Answer, type Body, type ExtraHeaders, endWithBody, requestIdOf, sendWhole, writeJsonHead } from "./answer.js";
export { sendData, sendError, sendJson, sendOk } from "./envelope.js";
export { RequestView, headerText, sendShaped, sendShapedError } from "./shaped.js";
export { answerError, ENVELOPE_ERRORS, type ErrorAnswers, errorAnswers } from "./error-answers.js";
export { failureOf, type Failure } from "./failure.js";
export { JSON_TYPE } from "./trusted-head.js";
export { CONTENT_SECURITY_POLICY, HTML_SECURITY_HEADERS, HTML_TYPE } from "./html-headers.js";
export type { StreamColumn } from "./stream/format.js";
export { answerHtml, answerText } from "./text.js";
export { databaseJson, jsonRowOrNull, jsonRows, jsonValue, sendGeneratedJson, sendDatabaseJson } from "./json-text.js";
export { answerClass, checkServerHeader } from "./server-header.js";
export { sendStream } from "./stream/send.js";
