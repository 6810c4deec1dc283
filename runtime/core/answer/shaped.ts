// Answers of routes that shape their own (docs/language.md §2.4, §4): the status, body and
// headers a compiled `respond` function made, and errors in the app's shape (svc.toml
// [errors]). Also what those functions read of the request: its headers and its external
// base URL (docs/operations.md "Public URL and proxies").

import type { IncomingMessage, ServerResponse } from "node:http";
import { sendWhole } from "./answer.js";
import { failureOf } from "./failure.js";
import { JSON_TYPE } from "./trusted-head.js";
import { HttpError, ValidationError } from "../errors.js";
import type { ErrorShape, ShapedAnswer, SiteOptions } from "../../contract/index.js";
import type { Logger } from "../log.js";

/** A host name, IPv4 or [IPv6] literal, and an optional port: nothing that could bend a URL. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `input.headers.x` and `input.base_url`, read only when a respond asks for them. */
export class RequestView {
  private readonly req: IncomingMessage;
  private readonly site: SiteOptions;

  constructor(req: IncomingMessage, site: SiteOptions) {
    this.req = req;
    this.site = site;
  }

  /** A request header (lower-case name); repeated ones joined with ", " as RFC 9110 §5.3 allows. */
  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  /**
   * `scheme://host[:port]` as the client reached the server: the configured public URL;
   * else, behind a trusted proxy, X-Forwarded-Proto and X-Forwarded-Host (their first,
   * client-side, values); else http and the Host header. An untrusted server ignores the
   * forwarded headers, which any client can send. A host that is not a host name is a 400.
   */
  baseUrl(): string {
    if (this.site.publicUrl !== null) return this.site.publicUrl;
    let scheme = "http";
    let host = this.req.headers.host;
    if (this.site.trustProxy) {
      const proto = firstValue(this.header("x-forwarded-proto"))?.toLowerCase();
      if (proto === "http" || proto === "https") scheme = proto;
      host = firstValue(this.header("x-forwarded-host")) ?? host;
    }
    if (host === undefined || !HOST.test(host)) throw new HttpError(400, "the request's host is not a host name", { code: "SVC_ERR_BAD_HOST" });
    return `${scheme}://${host.toLowerCase()}`;
  }
}

function firstValue(list: string | undefined): string | undefined {
  if (list === undefined) return undefined;
  const comma = list.indexOf(",");
  const first = (comma === -1 ? list : list.slice(0, comma)).trim();
  return first === "" ? undefined : first;
}

/**
 * A header value from a respond: text as it is, numbers and booleans as text, objects as
 * JSON; null or absent leaves the header out. Characters a header cannot carry are
 * %-encoded, so no value from a request can split the response.
 */
export function headerText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));
}

export function sendShaped(res: ServerResponse, answer: ShapedAnswer): void {
  sendWhole(res, answer.status, answer.body === null ? null : { type: answer.type ?? JSON_TYPE, content: answer.body }, answer.headers);
}

/**
 * An error of a shaped route, in the app's error shape: an HttpError keeps its status
 * (a validation 400 takes `validationStatus`), its message and headers; anything else is
 * a 500 "internal error" whose details go only to the log.
 */
export function sendShapedError(res: ServerResponse, err: unknown, shape: ErrorShape, log: Logger, context?: Record<string, unknown>): void {
  const failure = failureOf(err, log, context);
  const status = failure.err instanceof ValidationError ? shape.validationStatus : failure.status;
  sendWhole(res, status, { type: JSON_TYPE, content: shape.body(status, failure.message) }, failure.headers);
}
