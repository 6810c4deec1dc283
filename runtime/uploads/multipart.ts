// Streams a multipart/form-data body (RFC 7578) with busboy: text fields become arguments
// as in runtime/forms.ts, and each file part is written to `<dir>/.incoming/<random>` while
// its SHA-256 is computed, never held in memory whole. Limits are counted as bytes arrive:
// past `max_file_size` in one part, `max_files` parts or `max_request_size` in the body the
// answer is a 413 at once; a body cut short or malformed is a 400. Whatever fails, every
// temporary file of the request is removed before the error is thrown; once the body is
// whole, the store takes each file (store.ts).

import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import { unlink } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import type { Readable } from "node:stream";
import busboy from "busboy";
import { HttpError } from "../core/errors.js";
import { newArgs } from "../core/query-string.js";
import { UploadedFile, cleanFileName, cleanMediaType } from "./file.js";
import type { UploadStore } from "./store.js";

const CLOSE = { Connection: "close" } as const;
/** Text fields: as many and as long as a page's form needs, well under the request's limit. */
const MAX_FIELDS = 1000;
const MAX_FIELD_SIZE = 1024 * 1024;

export interface UploadLimits {
  dir: string;
  maxFileSize: number;
  maxFiles: number;
  maxRequestSize: number;
}

/**
 * The body's arguments: text fields as strings, file parts named in `accepts` as
 * UploadedFile values already in the store. A file part of another name is a 415: this
 * endpoint takes no file there.
 */
export async function readMultipart(req: IncomingMessage, limits: UploadLimits, store: UploadStore, accepts: ReadonlySet<string>): Promise<Record<string, unknown>> {
  const length = req.headers["content-length"];
  if (length !== undefined && Number(length) > limits.maxRequestSize) throw tooLarge(`request body is larger than ${limits.maxRequestSize} bytes`);
  const files = await receive(req, limits, accepts);
  const args = files.args;
  try {
    for (const f of files.uploaded) await store.put(f);
  } catch (err) {
    await Promise.all(files.uploaded.map((f) => unlink(f.temp).catch(() => undefined)));
    throw err;
  }
  return args;
}

interface Received {
  args: Record<string, unknown>;
  uploaded: UploadedFile[];
}

function receive(req: IncomingMessage, limits: UploadLimits, accepts: ReadonlySet<string>): Promise<Received> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        defParamCharset: "utf8",
        limits: { fileSize: limits.maxFileSize, files: limits.maxFiles, fields: MAX_FIELDS, fieldSize: MAX_FIELD_SIZE, fieldNameSize: 200 },
      });
    } catch (err) {
      reject(new HttpError(400, `multipart form body ${/boundary/i.test(String(err)) ? "has no boundary in its Content-Type" : "has a Content-Type busboy cannot read"}`, { code: "SVC_ERR_BAD_BODY", cause: err, headers: CLOSE }));
      return;
    }
    const args = newArgs() as Record<string, unknown>;
    const uploaded: UploadedFile[] = [];
    // Names already given: a name sent twice is refused, even after an empty file input left its argument out.
    const claimed = new Set<string>();
    const temps = new Set<string>();
    const streams = new Set<Readable>();
    const writing: Promise<void>[] = [];
    let failure: HttpError | null = null;
    let received = 0;
    let parsed = false;

    const fail = (err: HttpError): void => {
      if (failure !== null) return;
      failure = err;
      req.unpipe(bb);
      req.off("data", count);
      // Stop pulling from the socket; the error goes out with Connection: close.
      req.pause();
      for (const s of streams) s.destroy();
      void Promise.allSettled(writing).then(async () => {
        await Promise.all([...temps].map((t) => unlink(t).catch(() => undefined)));
        reject(err);
      });
    };
    const count = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limits.maxRequestSize) fail(tooLarge(`request body is larger than ${limits.maxRequestSize} bytes`));
    };
    const name = (raw: string): string | null => {
      const bracket = raw.indexOf("[");
      if (bracket !== -1) {
        fail(new HttpError(400, `argument "${raw.slice(0, bracket)}" given as a list or object in the form body; pass one value`, { code: "SVC_ERR_BAD_BODY", headers: CLOSE }));
        return null;
      }
      if (claimed.has(raw)) {
        fail(new HttpError(400, `argument "${raw}" given more than once in the form body`, { code: "SVC_ERR_BAD_BODY", headers: CLOSE }));
        return null;
      }
      claimed.add(raw);
      return raw;
    };

    bb.on("field", (raw, value, info) => {
      raw = unescapeName(raw);
      if (failure !== null) return;
      if (info.valueTruncated) return fail(tooLarge(`form field "${raw}" is longer than ${MAX_FIELD_SIZE} bytes`));
      const n = name(raw);
      // An empty file input, as busboy reads it (`filename=""`, no bytes): the argument is absent.
      if (n !== null && !(value === "" && accepts.has(n))) args[n] = value;
    });
    bb.on("file", (raw, stream, info) => {
      raw = unescapeName(raw);
      if (failure !== null) return void stream.resume();
      if (!accepts.has(raw)) {
        stream.resume();
        return fail(new HttpError(415, `argument "${raw}" is a file upload, and no file is taken there`, { code: "SVC_ERR_UNSUPPORTED_MEDIA_TYPE", headers: CLOSE }));
      }
      const n = name(raw);
      if (n === null) return void stream.resume();
      try {
        mkdirSync(join(limits.dir, ".incoming"), { recursive: true });
      } catch (err) {
        stream.resume();
        return fail(new HttpError(500, "the uploads folder could not be made", { code: "SVC_ERR_UPLOAD_WRITE", cause: err }));
      }
      streams.add(stream);
      const temp = join(limits.dir, ".incoming", randomBytes(16).toString("hex"));
      temps.add(temp);
      const hash = createHash("sha256");
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        hash.update(chunk);
      });
      stream.on("limit", () => fail(tooLarge(`file "${n}" is larger than ${limits.maxFileSize} bytes`)));
      // Piped at once, in this turn: a byte the hash sees is a byte the file gets.
      const out = createWriteStream(temp, { flags: "wx", mode: 0o600 });
      writing.push(
        (async () => {
          await new Promise<void>((done, broke) => {
            let error: unknown = null;
            out.on("error", (e) => (error ??= e));
            stream.on("error", (e) => {
              error ??= e;
              out.destroy();
            });
            stream.on("close", () => {
              // Destroyed by `fail`: the part never ends.
              if (!stream.readableEnded) {
                error ??= new Error("part cut");
                out.destroy();
              }
            });
            // Settled once the file is closed, never before: a file still being opened when
            // the part was cut would otherwise appear after `fail` removed it.
            out.on("close", () => (error === null && out.writableFinished ? done() : broke(error ?? new Error("not written"))));
            stream.pipe(out);
          });
          streams.delete(stream);
          if (failure !== null || stream.truncated) return;
          if ((info.filename ?? "") === "" && size === 0) {
            // A file input left empty: browsers send a part without a filename or bytes. The
            // argument is absent, so a `file?` one is null and a `file` one missing.
            temps.delete(temp);
            await unlink(temp);
            return;
          }
          const file = new UploadedFile(cleanFileName(unescapeName(info.filename)), cleanMediaType(info.mimeType), size, hash.digest("hex"), temp);
          args[n] = file;
          uploaded.push(file);
        })().catch((err: unknown) => {
          if (failure === null) fail(new HttpError(500, "an uploaded file could not be written", { code: "SVC_ERR_UPLOAD_WRITE", cause: err }));
        }),
      );
    });
    for (const event of ["filesLimit", "partsLimit", "fieldsLimit"] as const) {
      bb.on(event, () => fail(tooLarge(event === "filesLimit" ? `more than ${limits.maxFiles} files in one request` : "too many parts in the form body")));
    }
    bb.on("error", (err: Error) => fail(new HttpError(400, `multipart form body is malformed: ${err.message.replace(/^Multipart: /u, "")}`, { code: "SVC_ERR_BAD_BODY", cause: err, headers: CLOSE })));
    bb.on("close", () => {
      parsed = true;
      void Promise.allSettled(writing).then(() => {
        if (failure !== null) return;
        resolve({ args, uploaded });
      });
    });
    req.on("aborted", () => fail(new HttpError(400, "request body ended before it was complete", { code: "SVC_ERR_BAD_BODY", headers: CLOSE })));
    req.on("close", () => {
      if (!parsed && !req.complete) fail(new HttpError(400, "request body ended before it was complete", { code: "SVC_ERR_BAD_BODY", headers: CLOSE }));
    });
    req.on("data", count);
    req.pipe(bb);
  });
}

/**
 * Browsers write `"`, CR and LF in a filename as %22, %0D and %0A (HTML's multipart/form-data
 * encoding algorithm, as runtime/forms.ts undoes for field names); nothing else is decoded.
 */
function unescapeName(name: string | undefined): string {
  return (name ?? "").replace(/%22/gu, '"').replace(/%0D/giu, "\r").replace(/%0A/giu, "\n");
}

function tooLarge(message: string): HttpError {
  return new HttpError(413, message, { code: "SVC_ERR_BODY_TOO_LARGE", headers: CLOSE });
}
