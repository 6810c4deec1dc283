// Which methods answer at a path: the Allow header of an OPTIONS answer and of a 405, and what
// a CORS preflight allows. HEAD goes wherever GET does (Node leaves out the body).

import type { ServerResponse } from "node:http";
import { sendWhole } from "./answer/index.js";
import { HttpError } from "./errors.js";
import { HEALTH_PATH } from "./health.js";
import type { Router } from "./router.js";

/** Methods in the order Allow headers list them. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Every method the server routes, with HEAD wherever GET is: what a CORS preflight allows. */
export function routedMethods(router: Router): string[] {
  const all = router.methods();
  all.add("GET"); // /health
  return withHead([...all]).filter((m) => m !== "OPTIONS");
}

function withHead(methods: readonly string[]): string[] {
  const set = new Set(methods);
  if (set.has("GET")) set.add("HEAD");
  return METHOD_ORDER.filter((m) => set.has(m));
}

/** The methods something answers at `path`, OPTIONS and HEAD included; null when nothing does. */
export function allowedAt(path: string, router: Router): string[] | null {
  if (path === HEALTH_PATH) return withHead(["GET", "OPTIONS"]);
  const found = router.allowed(path);
  if (found === null) return null;
  return withHead([...found, "OPTIONS"]);
}

/** OPTIONS that is not a CORS preflight: 204 with `Allow` for a path something answers (RFC 9110 §9.3.7), else 404. */
export function answerOptions(res: ServerResponse, allow: string[] | null): void {
  if (allow === null) throw new HttpError(404, "not found", { code: "SVC_ERR_NOT_FOUND" });
  sendWhole(res, 204, null, { Allow: allow.join(", ") });
}
