// A verified webhook body → the handler's `payload`. Parsing happens only after the
// signature over the raw bytes has been checked.
//
// - JSON (any media type that parses as JSON) → the parsed value.
// - A form (`application/x-www-form-urlencoded`): when its only field is `payload` (GitHub's
//   form content type, Slack's interactivity), that field parsed as JSON; otherwise an
//   object of its fields as strings (Slack's slash commands), a repeated field as a list.
// - Anything else that is not JSON → the body as a string.
// - An empty body → null.
//
// Keys are not restricted the way API arguments are (`constructor` may be a key of Stripe
// metadata): the payload reaches actions only through member access, which reads own
// properties (runtime/lang/builtins.ts `member`). Nesting is limited as for any client JSON.

import type { IncomingHttpHeaders } from "node:http";
import { HttpError } from "../core/errors.js";
import { isJsonMedia, mediaType } from "../core/media-type.js";
import { MAX_JSON_DEPTH, nestingExceeds } from "../core/safe-json.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function parsePayload(headers: IncomingHttpHeaders, body: Buffer): unknown {
  if (body.length === 0) return null;
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new HttpError(400, "webhook body is not valid UTF-8", { code: "SVC_ERR_BAD_BODY" });
  }
  const media = mediaType(headers["content-type"]);
  if (media === "application/x-www-form-urlencoded") return formPayload(text);
  const declaredJson = isJsonMedia(media);
  const value = parseJson(text);
  if (value !== NOT_JSON) return value;
  if (declaredJson) throw new HttpError(400, "malformed JSON body", { code: "SVC_ERR_BAD_BODY" });
  return text;
}

const NOT_JSON = Symbol("not JSON");

function parseJson(text: string): unknown {
  if (nestingExceeds(text, MAX_JSON_DEPTH))
    throw new HttpError(400, `JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, { code: "SVC_ERR_BAD_BODY" });
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

function formPayload(text: string): unknown {
  const form = new URLSearchParams(text);
  const keys = [...new Set(form.keys())];
  if (keys.length === 1 && keys[0] === "payload") {
    const value = parseJson(form.get("payload")!);
    if (value === NOT_JSON) throw new HttpError(400, "the form field payload is not JSON", { code: "SVC_ERR_BAD_BODY" });
    return value;
  }
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const key of keys) {
    const values = form.getAll(key);
    fields[key] = values.length === 1 ? values[0] : values;
  }
  return fields;
}
