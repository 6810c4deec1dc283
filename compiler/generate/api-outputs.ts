// The API's description and client beside server.js: `openapi.json` (OpenAPI 3.1) and
// `client.ts` with its `client.js`, all from the one model (docs/openapi.md).

import type { Model } from "../analyze/model.js";
import { clientTs } from "./client/index.js";
import { format } from "./format.js";
import type { GenerateOptions, OutputFile } from "./index.js";
import { transpile } from "./index.js";
import { openapiJson } from "./openapi/document.js";

export async function apiOutputFiles(model: Model, options: GenerateOptions): Promise<OutputFile[]> {
  const raw = clientTs(model);
  const client = options.pretty === false ? raw : await format(raw);
  return [
    { path: "openapi.json", contents: openapiJson(model) },
    { path: "client.ts", contents: client },
    { path: "client.js", contents: transpile(client) },
  ];
}
