// Every diagnostic svc can report, from one place: docs/diagnostics.md is generated from
// this list, and a test checks that every code is documented and exercised.

import { analyzeCodes } from "./codes/analyze.js";
import { answerCodes } from "./codes/answers.js";
import { streamCodes } from "./codes/stream.js";
import { observabilityCodes } from "./codes/observability.js";
import { appCodes } from "./codes/app.js";
import { compositionCodes } from "./codes/composition.js";
import { configCodes } from "./codes/config.js";
import { crossSiteCodes } from "./codes/cross-site.js";
import { dialectCodes } from "./codes/dialect.js";
import { expressionCodes } from "./codes/expressions.js";
import { identityCodes } from "./codes/identity.js";
import { jqCodes } from "./codes/jq.js";
import { jobCodes } from "./codes/jobs.js";
import { keyCodes } from "./codes/keys.js";
import { limitCodes } from "./codes/limits.js";
import { listCodes } from "./codes/lists.js";
import { openapiCodes } from "./codes/openapi.js";
import { parseCodes } from "./codes/parse.js";
import { respondCodes } from "./codes/respond.js";
import { sqlCodes } from "./codes/sql.js";
import { uploadCodes } from "./codes/uploads.js";
import { transactionCodes } from "./codes/transactions.js";
import { webhookCodes } from "./codes/webhooks.js";
import { eventCodes } from "./codes/events.js";
import { evolveCodes } from "./codes/evolve.js";
import type { DiagnosticDef } from "./diagnostic.js";

export interface CatalogGroup {
  title: string;
  range: string;
  codes: Record<string, DiagnosticDef<any>>;
}

export const catalog: CatalogGroup[] = [
  { title: "Syntax", range: "SVC1001–SVC1099", codes: parseCodes },
  { title: "Declarations, names and types", range: "SVC2001–SVC2099", codes: { ...analyzeCodes, ...webhookCodes, ...listCodes, ...compositionCodes, ...openapiCodes } },
  { title: "Primary keys", range: "SVC2101–SVC2119", codes: keyCodes },
  { title: "Expressions: lists built in code, values made in code, absent arguments", range: "SVC2120–SVC2139", codes: expressionCodes },
  { title: "Transactions and unique indexes", range: "SVC2140–SVC2149", codes: transactionCodes },
  { title: "SQL", range: "SVC3001–SVC3099", codes: sqlCodes },
  { title: "SQL for the chosen backend", range: "SVC3101–SVC3199", codes: dialectCodes },
  { title: "Project and svc.toml", range: "SVC4001–SVC4099", codes: configCodes },
  { title: "jq page loaders", range: "SVC5001–SVC5099", codes: jqCodes },
  { title: "Route files, pages and public/", range: "SVC6001–SVC6099", codes: { ...appCodes, ...uploadCodes } },
  { title: "Identity: tokens, sessions, passwords and the caller", range: "SVC7001–SVC7099", codes: { ...identityCodes, ...crossSiteCodes, ...limitCodes } },
  { title: "Route answers and error shapes", range: "SVC7101–SVC7199", codes: { ...respondCodes, ...answerCodes, ...streamCodes, ...observabilityCodes } },
  { title: "Jobs and schedules", range: "SVC8001–SVC8049", codes: jobCodes },
  { title: "Events and their subscribers", range: "SVC8050–SVC8079", codes: eventCodes },
  { title: "Schema changes", range: "SVC8100–SVC8139", codes: evolveCodes },
];

/** Every definition, sorted by code. */
export function allDiagnostics(): DiagnosticDef<any>[] {
  return catalog.flatMap((g) => Object.values(g.codes)).sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** docs/diagnostics.md, generated: `npm run docs:diagnostics`. */
export function diagnosticsMarkdown(): string {
  const out = [
    "# Diagnostics",
    "",
    "<!-- Generated from compiler/diagnostics/catalog.ts by `npm run docs:diagnostics`. Do not edit. -->",
    "",
    "Every error and warning svc reports has a code. Codes are never reused for another meaning.",
    "Each is printed as `file:line:col: error SVC1001: message`, then a code frame and, where there is one, a hint.",
    "",
  ];
  for (const g of catalog) {
    out.push(`## ${g.title} (${g.range})`, "", "| Code | Severity | Meaning |", "|---|---|---|");
    const defs = Object.values(g.codes).sort((a, b) => (a.code < b.code ? -1 : 1));
    for (const d of defs) out.push(`| ${d.code} | ${d.severity} | ${d.summary.replace(/\|/g, "\\|")} |`);
    out.push("");
  }
  return out.join("\n");
}
