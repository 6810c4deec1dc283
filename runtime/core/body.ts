// Reads a POST/PUT body into call arguments, within `--max-body-size`. A declared
// Content-Length over the limit is refused before reading a byte; a chunked body is
// counted as it streams and reading stops at the limit (nothing past it is buffered).
// Refusals that leave body bytes unread close the connection (`Connection: close`) so
// Node does not go on reading the rest of a huge body to reuse the socket.

import type { IncomingMessage } from "node:http";
import { HttpError } from "./errors.js";
import { parseMultipart } from "./forms.js";
import { isJsonMedia, mediaType, parameterValues } from "./media-type.js";
import { newArgs, parseUrlEncoded } from "./query-string.js";
import { JsonProblem, MAX_JSON_DEPTH, parseClientJson } from "./safe-json.js";
import type { CallInput } from "../contract/index.js";
import { type FileParts, isMultipart } from "../uploads/index.js";

const CLOSE = { Connection: "close" } as const;
const utf8 = new TextDecoder("utf-8", { fatal: true });

type BodyKind = "json" | "form" | "multipart";
const EXPECTED = "send application/json, application/x-www-form-urlencoded or multipart/form-data";

/** Reads and parses the request body. Throws HttpError 400/413/415 for a body it refuses. */
export async function readBody(req: IncomingMessage, maxBodySize: number, files?: FileParts | null): Promise<CallInput> {
  // Streamed, within `[uploads]`'s limits rather than --max-body-size.
  if (files != null && isMultipart(req)) return { args: await files.uploads.read(req, files.accepts), text: true };
  const length = req.headers["content-length"];
  const hasBody = length !== undefined ? length !== "0" : req.headers["transfer-encoding"] !== undefined;
  if (!hasBody) return { args: newArgs(), text: false };
  if (length !== undefined && Number(length) > maxBodySize) throw tooLarge(maxBodySize);

  const contentType = req.headers["content-type"];
  const kind = bodyKind(contentType);
  const raw = await readRaw(req, maxBodySize);
  if (raw.length === 0) return { args: newArgs(), text: kind !== "json" };
  // A form's fields are text, coerced to the declared types like a query string's.
  if (kind === "multipart") return { args: parseMultipart(raw, contentType ?? ""), text: true };
  const text = decodeUtf8(raw);
  return kind === "form"
    ? { args: parseUrlEncoded(text, "form body"), text: true }
    : { args: parseJsonArgs(text), text: false };
}

/** The body's bytes as they arrived, within `maxBodySize`: webhooks verify signatures over exactly these. */
export async function readRawBody(req: IncomingMessage, maxBodySize: number): Promise<Buffer> {
  const length = req.headers["content-length"];
  const hasBody = length !== undefined ? length !== "0" : req.headers["transfer-encoding"] !== undefined;
  if (!hasBody) return Buffer.alloc(0);
  if (length !== undefined && Number(length) > maxBodySize) throw tooLarge(maxBodySize);
  return readRaw(req, maxBodySize);
}

/** The media type decides the parser; anything else with a body is a 415 (docs/language.md §3). */
function bodyKind(header: string | undefined): BodyKind {
  // Fast path: what JSON clients almost always send.
  if (header === "application/json") return "json";
  if (header === undefined || header.length === 0) {
    throw new HttpError(415, `a request body needs a Content-Type; ${EXPECTED}`, { code: "SVC_ERR_UNSUPPORTED_MEDIA_TYPE", headers: CLOSE });
  }
  const media = mediaType(header);
  const kind: BodyKind | null = isJsonMedia(media)
    ? "json"
    : media === "application/x-www-form-urlencoded"
      ? "form"
      : media === "multipart/form-data"
        ? "multipart"
        : null;
  if (kind === null) throw new HttpError(415, `unsupported Content-Type "${media}"; ${EXPECTED}`, { code: "SVC_ERR_UNSUPPORTED_MEDIA_TYPE", headers: CLOSE });
  // Only UTF-8 is accepted (RFC 8259 §8.1 requires it for JSON; forms follow the page's encoding, ours is UTF-8).
  for (const charset of parameterValues(header, "charset")) {
    if (charset !== "utf-8" && charset !== "utf8") {
      throw new HttpError(415, `unsupported charset "${charset}"; send UTF-8`, { code: "SVC_ERR_UNSUPPORTED_MEDIA_TYPE", headers: CLOSE });
    }
  }
  return kind;
}

function readRaw(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > max) {
        cleanup();
        // Stop pulling from the socket; the 413 goes out with Connection: close.
        req.pause();
        reject(tooLarge(max));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(new HttpError(400, "request body could not be read", { code: "SVC_ERR_BAD_BODY", cause: err, headers: CLOSE }));
    };
    const onClose = (): void => {
      cleanup();
      reject(new HttpError(400, "request body ended before it was complete", { code: "SVC_ERR_BAD_BODY", headers: CLOSE }));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

function tooLarge(max: number): HttpError {
  return new HttpError(413, `request body is larger than ${max} bytes`, { code: "SVC_ERR_BODY_TOO_LARGE", headers: CLOSE });
}

function decodeUtf8(raw: Buffer): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw new HttpError(400, "request body is not valid UTF-8", { code: "SVC_ERR_BAD_BODY" });
  }
}

function parseJsonArgs(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseClientJson(text);
  } catch (err) {
    if (!(err instanceof JsonProblem)) throw err;
    if (err.kind === "malformed") throw new HttpError(400, "malformed JSON body", { code: "SVC_ERR_BAD_BODY" });
    if (err.kind === "too-deep") throw new HttpError(400, `JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, { code: "SVC_ERR_BAD_BODY" });
    throw new HttpError(400, `JSON body has a ${err.message}`, { code: "SVC_ERR_BAD_BODY" });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HttpError(400, "JSON body must be an object of arguments", { code: "SVC_ERR_BAD_BODY" });
  }
  return value as Record<string, unknown>;
}
