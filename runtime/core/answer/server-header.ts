// `--server-header` (svc.toml `[server] header`, docs/operations.md "Server header"): the
// Server header every answer carries (RFC 9110 §10.2.4). Decided once, at start: without
// the setting the server's response class is Answer itself and no request pays for it; with
// it, a subclass sets the header as each response object is made, so every way an answer
// leaves (JSON, pages, files, errors) writes it with the rest of its head.

import type { IncomingMessage } from "node:http";
import { Answer } from "./answer.js";
import { StartupError } from "../errors.js";

export const SERVER_HEADER = "Server";

/** The response class for `http.createServer({ ServerResponse })`. */
export function answerClass(serverHeader: string | null | undefined): typeof Answer {
  if (serverHeader === null || serverHeader === undefined) return Answer;
  const value = serverHeader;
  return class NamedAnswer<Request extends IncomingMessage = IncomingMessage> extends Answer<Request> {
    constructor(req: Request) {
      super(req);
      this.setHeader(SERVER_HEADER, value);
    }
  };
}

/**
 * `--server-header`: the Server header's value (RFC 9110 §10.2.4), visible ASCII and inner
 * spaces, at most 128 characters; "" (from a flag) means none, overriding svc.toml.
 */
export function checkServerHeader(value: unknown, source: string): string | null {
  if (value === "") return null;
  if (typeof value !== "string" || value.length > 128 || !/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value)) {
    throw new StartupError("SVC_ERR_OPTION", `${source} must be a product name such as "svc" or "svc/1.0": visible ASCII, at most 128 characters`);
  }
  return value;
}
