// The jq-web fallback for programs outside the compiled subset.

import { createRequire } from "node:module";
import { JqError } from "./errors.js";

export type JqRunner = (program: string, input: unknown, vars: { params: unknown; query: unknown }) => unknown[];

interface JqWeb {
  raw(json: string, filter: string, flags: string[]): string | undefined;
}

let jqWeb: Promise<JqRunner> | null = null;

/**
 * jq-web, loaded once. `$params` and `$query` travel inside the input document (JSON, never
 * spliced into program text): the program runs as `.p as $params | .q as $query | .i | (…)`.
 */
export function loadJqWeb(): Promise<JqRunner> {
  jqWeb ??= (async () => {
    const require = createRequire(import.meta.url);
    const mod = (await (require("jq-web") as Promise<JqWeb>)) as JqWeb;
    return (program, input, vars) => {
      const doc = JSON.stringify({ i: input ?? null, p: vars.params ?? null, q: vars.query ?? null });
      const filter = `.p as $params | .q as $query | .i | (\n${program}\n)`;
      let text: string | undefined;
      try {
        text = mod.raw(doc, filter, ["-c"]);
      } catch (e) {
        const stderr = (e as { stderr?: string }).stderr ?? String((e as Error).message ?? e);
        throw new JqError(stderr.replace(/^jq: error \(at [^)]*\): /, "").trim());
      }
      return (text ?? "")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as unknown);
    };
  })();
  return jqWeb;
}

