// docs/runtime-errors.md as text, from the runtime's catalog (runtime/contract/error-codes.ts).
import { ERROR_CODES, type ErrorCodeInfo } from "../../runtime/contract/error-codes.js";

const INTRO = `# Runtime error codes

<!-- Generated from runtime/contract/error-codes.ts by \`npm run docs:runtime-errors\`; edit the catalog, not this file. -->

Every error a generated server raises carries a stable code, \`SVC_ERR_<NAME>\`, one per kind of
failure (as Fastify's \`FST_ERR_*\`). The code is for operators and tests; it never changes what a
client sees:

- an error that becomes an answer keeps the envelope as it is (\`{"ok": false, "error": "…"}\`, or
  the app's declared error shape); its code goes to the log line, the \`code\` field of
  \`request failed\` (at \`debug\`), \`internal error\` and \`request rejected\`
  (see [operations](operations.md#logs));
- a server that cannot start prints one line on stderr, \`<name>: <why> [SVC_ERR_…]\`, and exits 1
  (with \`--workers\`, the primary prints the failing worker's code; a replacement worker that
  cannot start is logged as \`a replacement worker could not start\` with its \`code\`).

Status is the HTTP status of the answer where the error becomes one: "varies" when the raiser
picks it (a \`fail\`, a constraint), "—" when the error stops the server from starting or is
caught inside the runtime and never answered as such.

| Code | When | Status |
|---|---|---|
`;

function statusText(info: ErrorCodeInfo): string {
  return info.status === undefined ? "—" : String(info.status);
}

export function runtimeErrorsMarkdown(): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([code, info]: [string, ErrorCodeInfo]) => `| \`${code}\` | ${info.meaning.replaceAll("|", "\\|")} | ${statusText(info)} |`,
  );
  return `${INTRO}${rows.join("\n")}\n`;
}
