// The per-text steps of analysis that cost real time (checking SQL against the resources,
// checking a template, compiling page.jq) behind one interface.
// A one-shot build runs them directly; `svc dev` passes its BuildCache
// (compiler/dev/build-cache.ts), which answers an unchanged text from the last build.

import { compileJq, type JqCompileResult } from "../jq/index.js";
import type { PositionMap } from "../parse/positions.js";
import type { Backend, ResourceModel } from "./model/model.js";
import type { Reporter } from "./shared/context.js";
import { withBackendRules } from "./sql/backend-rules.js";
import type { SqlChecker } from "./sql/dialect.js";
import { createSqliteChecker } from "./sql/sqlite/check.js";
import { checkTemplate } from "./app/template.js";

export interface AnalyzeSteps {
  /** A checker for these resources under `backend`'s rules; the caller disposes it after the build's checks. */
  sqlChecker(resources: readonly ResourceModel[], backend: Backend | undefined): SqlChecker;
  /**
   * `checkTemplate` for `template`, which starts at `offset` in `text` (the whole file,
   * whose positions `positions` maps): the text is passed so a cache can key by it.
   */
  checkTemplate(file: string, text: string, positions: PositionMap, template: string, offset: number, r: Reporter): Set<string> | null;
  compileJq(file: string, program: string): JqCompileResult;
}

/** Every step run afresh: what `svc build` and `svc check` use. */
export const directSteps: AnalyzeSteps = {
  sqlChecker: (resources, backend) => withBackendRules(createSqliteChecker(resources), backend, resources),
  checkTemplate: (file, _text, positions, template, offset, r) => checkTemplate(file, template, offset, positions, r),
  compileJq,
};
