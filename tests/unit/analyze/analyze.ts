import { analyze } from "../../../compiler/analyze/index.js";
import { defaultConfig } from "../../../compiler/project/config.js";
import type { Model } from "../../../compiler/analyze/model/model.js";
import type { AuthConfig, Backend } from "../../../compiler/project/config/schema.js";
import type { Diagnostic } from "../../../compiler/diagnostics/diagnostic.js";
import { parseModule } from "../../../compiler/parse/index.js";

/** Analyze one module file's text, as the compiler would. */
export function analyzeText(text: string, options: { auth?: boolean | AuthConfig; backend?: Backend } = {}): { model: Model; diagnostics: Diagnostic[] } {
  const parsed = parseModule("m.svc", text);
  const config = defaultConfig();
  if (options.backend !== undefined) config.database.backend = options.backend;
  if (options.auth === true) config.auth.bearer = { credential: "tokens" };
  else if (options.auth) config.auth = options.auth;
  const result = analyze({ name: "t", version: "1.0.0", mode: "module", config, modules: [{ dir: ".", files: [parsed.ast] }], sources: ["m.svc"] });
  return { model: result.model, diagnostics: [...parsed.diagnostics, ...result.diagnostics] };
}

export function codes(ds: Diagnostic[]): string[] {
  return ds.map((d) => d.code);
}

export const TASK = `module m

resource task {
  id: id
  title: text
  status: enum(open, done) = "open"
  points: int = 0
  note: text?
}

query get_task(id: id) one {
  SELECT * FROM task WHERE id = @id
}
`;
