import { defineDiagnostic as d } from "../diagnostic.js";

/**
 * Webhooks and the credentials they use, beyond the declaration checks of SVC2040–SVC2043
 * (analyze.ts): part of the "Declarations, names and types" range.
 */
export const webhookCodes = {
  webhookCredentialUndeclared: d(
    "SVC2044",
    "warning",
    "A webhook's secret names a credential that svc.toml's [credentials] does not declare.",
    (name: string, _near: string | null) =>
      `credential \`${name}\` is not declared under [credentials] in svc.toml; the server will read it from SVC_CREDENTIAL_${name.toUpperCase()}`,
    (name: string, near: string | null) =>
      near
        ? `did you mean \`${near}\`?`
        : `declare where it comes from, e.g. [credentials] ${name} = { env = "${name.toUpperCase()}" }`,
  ),
  routeToWebhookHandler: d(
    "SVC2045",
    "error",
    "A route targets an action that handles a webhook: callers could reach it without a signature.",
    (action: string, webhook: string) =>
      `\`${action}\` handles webhook \`${webhook}\`; a route to it would run it without checking a signature`,
    () => "a webhook's handler runs only for verified deliveries; give the route an action of its own",
  ),
  reservedTable: d(
    "SVC2046",
    "error",
    "A resource takes the name of a table svc keeps for itself: handled webhook deliveries, or the answers of calls made with an Idempotency-Key.",
    (name: string, keeps: string) => `resource \`${name}\` has the name of the table svc keeps ${keeps} in`,
    () => "rename the resource",
  ),
} as const;
