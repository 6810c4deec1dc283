// The rules the source tree is held to, as data: which files may not import which, and why.
// import-rules.test.ts checks every edge of the import graph against them. Compiler rules
// name phase folders, so they hold however a phase is arranged inside.

import type { ImportRule } from "./graph.js";

/**
 * The runtime's folders that are features: each keeps its internals to itself, and others
 * reach it through its index.ts. The other folders are the core (core/), start-up (start/),
 * the contract types (contract/) and the helpers generated code calls (lang/).
 */
export const RUNTIME_FEATURES = ["assets", "auth", "db", "idempotency", "jobs", "jq", "keys", "limits", "metrics", "migrate", "observe", "outbox", "pages", "revocation", "traces", "uploads", "values", "webhooks"];
export const RUNTIME_PARTS = ["core", "start", "contract", "lang"];

const FEATURE_GLOB = `{${RUNTIME_FEATURES.join(",")}}`;

const PHASE_RULES: ImportRule[] = [
  {
    from: "runtime/**",
    mayNotImport: "compiler/**",
    why: "the runtime ships alone in a user's server; it never needs the compiler",
  },
  {
    from: "compiler/parse/**",
    mayNotImport: "compiler/{analyze,generate,cli,dev,deploy}/**",
    why: "parsing comes first: it knows nothing of analysis, generation or the CLI",
  },
  {
    from: "compiler/analyze/**",
    mayNotImport: "compiler/{generate,cli,dev,deploy}/**",
    why: "analysis hands the generator a model; it never reaches forward into generation or the CLI",
  },
  {
    from: "compiler/generate/**",
    mayNotImport: "compiler/{cli,dev,deploy}/**",
    why: "the generator prints the model; the CLI wires it, not the other way round",
  },
  {
    from: "compiler/diagnostics/**",
    mayNotImport: "compiler/{parse,analyze,generate,cli,dev,deploy}/**",
    except: "compiler/parse/ast.ts",
    why: "the diagnostic catalog is shared by every phase and depends on none (but the spans of the AST it points into)",
  },
];

const RUNTIME_RULES: ImportRule[] = [
  {
    from: "runtime/{core,contract,lang}/**",
    mayNotImport: "runtime/start/**",
    why: "start-up wires the server; what runs per request never depends on how it started",
  },
  {
    from: "runtime/{core,contract,lang}/**",
    mayNotImport: "runtime/index.ts",
    why: "runtime/index.ts is the public surface for generated code, not a way in for the runtime itself",
  },
  {
    from: "runtime/{core,lang}/**",
    mayNotImport: `runtime/${FEATURE_GLOB}/**`,
    except: `runtime/${FEATURE_GLOB}/index.ts`,
    why: "the core and the language helpers reach a feature through its index.ts only",
  },
  {
    from: "runtime/{core/*.ts,start/**,contract/**,lang/**}",
    mayNotImport: "runtime/core/answer/*.ts",
    except: "runtime/core/answer/index.ts",
    why: "answers are written through the one answer API, core/answer/index.ts",
  },
];

/** A feature reaches another only through its index.ts; its own files are its own. */
const FEATURE_RULES: ImportRule[] = RUNTIME_FEATURES.flatMap((feature) => [
  {
    from: `runtime/${feature}/**`,
    mayNotImport: `runtime/{${RUNTIME_FEATURES.filter((f) => f !== feature).join(",")}}/**`,
    except: `runtime/${FEATURE_GLOB}/index.ts`,
    why: `${feature}/ reaches another feature through its index.ts, not its internals`,
  },
  {
    from: `runtime/${feature}/**`,
    mayNotImport: "runtime/{start/**,index.ts}",
    why: "a feature runs inside a started server; start-up and the public surface are above it",
  },
  {
    from: `runtime/${feature}/**`,
    mayNotImport: "runtime/core/answer/**",
    except: "runtime/core/answer/index.ts",
    why: "answers are written through the one answer API, core/answer/index.ts",
  },
]);

export const IMPORT_RULES: readonly ImportRule[] = [...PHASE_RULES, ...RUNTIME_RULES, ...FEATURE_RULES];
