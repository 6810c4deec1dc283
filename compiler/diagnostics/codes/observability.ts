// Metrics and traces in svc.toml `[server]` (docs/operations.md, Metrics): SVC7150–SVC7169.
// Codes are never reused.

import { defineDiagnostic as d } from "../diagnostic.js";

export const observabilityCodes = {
  metricsListenIsListen: d(
    "SVC7150",
    "error",
    "`[server] metrics_listen` is the server's own listen address; a separate metrics address must differ from it.",
    (address: string) => `metrics_listen \`${address}\` is the server's own listen address`,
    () => "leave metrics_listen out to serve /metrics on the server's own address, or give another port",
  ),
};
