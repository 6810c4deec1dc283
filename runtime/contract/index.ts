// The contract between generated servers and the runtime, in one module: the plain objects
// generated code builds at build time (ServerSpec and everything it holds) and the runtime
// reads. Generated code sees these through runtime/index.ts as `rt.<Name>`.

export type * from "./server.js";
export type * from "./options.js";
export type * from "./jobs.js";
export type * from "./events.js";
export type * from "./answers.js";
export type * from "./pages.js";
export type * from "./webhooks.js";
export type * from "./keys.js";
export type * from "./uploads.js";
export type * from "./transactions.js";
export type * from "./limits.js";
export type * from "./evolve.js";
export type * from "./spans.js";
