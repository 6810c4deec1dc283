// The response envelope (docs/language.md §3, docs/service.md §2 and §7): `{"ok":true,"data":…}` or
// `{"ok":false,"error":"…"}`. An HttpError keeps its status, message and headers; any
// other error is a 500 whose details go only to the log.

import type { ServerResponse } from "node:http";
import { endWithBody, writeJsonHead } from "./answer.js";
import { failureOf } from "./failure.js";
import type { Logger } from "../log.js";

const INTERNAL = '{"ok":false,"error":"internal error"}';

const DATA_OPEN = '{"ok":true,"data":';

/** Hot path: writes `{"ok":true,"data":<json>}`, `json` serialized already (`jsonBytes` of UTF-8 if known). */
export function sendData(res: ServerResponse, json: string, status = 200, jsonBytes?: number): void {
  sendJson(res, status, DATA_OPEN + json + "}", undefined, jsonBytes === undefined ? undefined : DATA_OPEN.length + jsonBytes + 1);
}

/** Writes `{"ok":true,"data":…}`; `undefined` data is sent as null. */
export function sendOk(res: ServerResponse, data: unknown): void {
  // One stringify of the whole envelope: its text comes out flat, where gluing the envelope
  // around the data's text makes a rope that every later reader has to flatten again.
  sendJson(res, 200, JSON.stringify({ ok: true, data: data === undefined ? null : data }));
}

/**
 * Writes the error envelope for `err`. `context` is logged with a 500 so the log line
 * can be matched to the request.
 */
export function sendError(res: ServerResponse, err: unknown, log: Logger, context?: Record<string, unknown>): void {
  const failure = failureOf(err, log, context);
  if (failure.err === null) sendJson(res, 500, INTERNAL);
  else sendJson(res, failure.status, JSON.stringify({ ok: false, error: failure.message }), failure.headers);
}

/** Writes a complete JSON response; when headers already went out, the only honest thing left is to cut the connection. */
export function sendJson(res: ServerResponse, status: number, body: string, headers?: Record<string, string>, length = Buffer.byteLength(body)): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (headers !== undefined) {
    for (const name of Object.keys(headers)) res.setHeader(name, headers[name]);
  }
  writeJsonHead(res, status, length);
  endWithBody(res, body, length);
}
