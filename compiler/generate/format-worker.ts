// The formatter's own thread (see format.ts): prettier loads here while the main thread
// loads TypeScript, parses and analyzes.

import { parentPort } from "node:worker_threads";
import * as estree from "prettier/plugins/estree";
import * as typescript from "prettier/plugins/typescript";
import type { Options } from "prettier";
import { format } from "prettier/standalone";
import { FORMAT_OPTIONS } from "./format-options.js";

export interface FormatRequest {
  id: number;
  source: string;
}

export type FormatReply = { id: number; ok: true; text: string } | { id: number; ok: false; error: string };

/** Fixed options, so output never depends on a user's prettier config. */
const OPTIONS: Options = { parser: "typescript", plugins: [estree, typescript], ...FORMAT_OPTIONS };

parentPort?.on("message", (request: FormatRequest) => {
  format(request.source, OPTIONS).then(
    (text) => parentPort?.postMessage({ id: request.id, ok: true, text } satisfies FormatReply),
    (err: unknown) =>
      parentPort?.postMessage({
        id: request.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      } satisfies FormatReply),
  );
});
