// What generated code says about answers a route shapes itself (docs/language.md §2.4, §4):
// what a compiled `respond` returns, the app's error shape (svc.toml `[errors]`), where the
// site's base URL comes from, and a streamed answer's rows. Written by core/answer/.

import type { RequestView } from "../core/answer/index.js";
import type { StreamColumn } from "../core/answer/index.js";
import type { CallInput, StatementSpec } from "./server.js";

/** What a compiled `respond` returns: `body` is JSON text, null for a 204; `type` a text answer's Content-Type (core/answer/text.ts). */
export interface ShapedAnswer {
  status: number;
  body: string | null;
  headers: [string, string | null][] | null;
  type?: string;
}

/** svc.toml `[errors]`, compiled: the body of an error, and what validation 400s become. */
export interface ErrorShape {
  validationStatus: number;
  body(status: number, message: string): string;
}

/** `[server] public_url` and `trust_proxy`: where `input.base_url` comes from. */
export interface SiteOptions {
  publicUrl: string | null;
  trustProxy: boolean;
}

/** What a module route's `respond` reads besides its result. */
export interface RespondInput {
  params: Record<string, string>;
  view: RequestView;
}

/** A route's `respond csv` / `respond ndjson` to a query that returns rows, as the build made it. */
export interface StreamSpec {
  format: "csv" | "ndjson";
  columns: StreamColumn[];
  stmt: StatementSpec;
  /** The statement's values, from the validated input (a 400 when the input is bad). */
  values: (input: CallInput) => unknown[];
}
