import type { Model } from "../../analyze/model/model.js";
import { literal } from "../literal.js";

// Identity in the generated server: the spec's `auth` entry. The sessions table and its
// statements are the runtime's own (runtime/auth/sessions-table.ts). Credential values never
// appear: `auth` names the credentials the server reads at start.

/** The spec's `auth` entry: as svc.toml says. */
export function authSpec(model: Model): string | null {
  const auth = model.auth;
  if (auth === undefined) return null;
  const fields: string[] = [];
  if (auth.bearer !== undefined) fields.push(`bearer: ${literal(auth.bearer)}`);
  if (auth.schemes !== undefined) fields.push(`schemes: ${literal(auth.schemes)}`);
  if (auth.jwt !== undefined) fields.push(`jwt: ${literal(auth.jwt)}`);
  const s = auth.sessions;
  if (s !== undefined) {
    const idle = s.idleS === undefined ? "" : `, idleS: ${s.idleS}`;
    fields.push(`sessions: { lifetimeS: ${s.lifetimeS}${idle}, cookie: ${JSON.stringify(s.cookie)} }`);
  }
  return `{ ${fields.join(", ")} }`;
}
