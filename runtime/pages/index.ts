// Route files, pages, layout and public/ (docs/language.md §4–5): what the server uses of
// runtime/pages. Generated code reaches its helpers as `rt.app.*` (call.ts).

export { App, type AppDeps } from "./app.js";
export { blockAnswersEnvelope } from "./route-request.js";
