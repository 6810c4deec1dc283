// The API's description and client beside server.js: `openapi.json` (OpenAPI 3.1) and
// `client.ts` with its `client.js`, all from the one model (docs/openapi.md).

import type { Model } from "../analyze/model/model.js";
import { clientJs, clientTs } from "./client/index.js";
import { format } from "./format.js";
import type { OutputFile } from "./index.js";
import { openapiJson } from "./openapi/document.js";

/**
 * Makes the outputs while the formatter thread works on server.ts, when this thread would
 * only wait: openapi.json, client.ts (queued for prettier behind server.ts) and client.js,
 * written from the same model. `files()` waits for the formatting.
 */
export function apiOutputs(model: Model, pretty: boolean): { files(): Promise<OutputFile[]> } {
  const raw = clientTs(model);
  const client = pretty ? format(raw) : Promise.resolve(raw);
  const openapi = openapiJson(model);
  const js = clientJs(model);
  return {
    async files() {
      return [
        { path: "openapi.json", contents: openapi },
        { path: "client.ts", contents: await client },
        { path: "client.js", contents: js },
      ];
    },
  };
}
