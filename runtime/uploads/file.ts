// A file that arrived in a multipart body (docs/language.md §2.7). The action sees its
// metadata only, `{name, type, size, sha256}`: that is what a `file` argument holds, what
// a `file` field stores (as JSON) and what an endpoint answering a file serves by. The
// bytes are in the upload store, by their sha256 (store.ts); the client's filename is kept
// as a name to show, never used as a path.

import { ValidationError } from "../core/errors.js";

/** The value of a `file` argument or field. */
export interface FileValue {
  /** The client's filename, without any folder part or control character; never a path. */
  name: string;
  /** The media type the client gave (lowercase `type/subtype`), or application/octet-stream. */
  type: string;
  size: number;
  /** Lowercase hex SHA-256 of the bytes: the key in the store and the strong ETag. */
  sha256: string;
}

/**
 * A file part as the multipart reader made it: its metadata, and the temporary file its
 * bytes were streamed to until the store takes them. Only the reader makes these, so a JSON
 * body can never pass a `file` argument (`{"photo": {"sha256": …}}` is a 400).
 */
export class UploadedFile implements FileValue {
  constructor(
    readonly name: string,
    readonly type: string,
    readonly size: number,
    readonly sha256: string,
    readonly temp: string,
  ) {}

  toJSON(): FileValue {
    return { name: this.name, type: this.type, size: this.size, sha256: this.sha256 };
  }

  /** A re-rendered form shows the file by its name. */
  toString(): string {
    return this.name;
  }
}

/** The check of a `file` argument (runtime/lang/args.ts has the others): an uploaded part, whatever the body's other values. */
export function fileArg(value: unknown, name: string, _asText: boolean): FileValue {
  if (value instanceof UploadedFile) return value.toJSON();
  throw new ValidationError("SVC_ERR_ARGUMENT", `argument "${name}" must be a file, sent as a part of a multipart/form-data body`);
}

const MAX_NAME = 255;
// C0 and C1 controls, DEL, and the separators of paths on any system.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f]/gu;

/**
 * The name kept for a client's filename: its last path segment (after `/` or `\`), without
 * control characters (NUL included), at most 255 characters; "file" when nothing is left.
 */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? "").split(/[/\\]/u).pop() ?? "";
  const clean = [...base.replace(UNSAFE, "").trim()].slice(0, MAX_NAME).join("");
  return clean === "" || clean === "." || clean === ".." ? "file" : clean;
}

const MEDIA = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/u;

/** The client's media type, lowercase, when it is one; else application/octet-stream. */
export function cleanMediaType(raw: string | undefined): string {
  const type = (raw ?? "").split(";")[0]!.trim().toLowerCase();
  return MEDIA.test(type) ? type : "application/octet-stream";
}

const SHA256 = /^[0-9a-f]{64}$/u;

/** A stored file's value, as read back from a `file` field or an action's answer; null when it is not one. */
export function asFileValue(value: unknown): FileValue | null {
  if (value === null || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  if (typeof v.sha256 !== "string" || !SHA256.test(v.sha256)) return null;
  if (typeof v.size !== "number" || !Number.isSafeInteger(v.size) || v.size < 0) return null;
  return { name: cleanFileName(typeof v.name === "string" ? v.name : ""), type: cleanMediaType(typeof v.type === "string" ? v.type : ""), size: v.size, sha256: v.sha256 };
}

/** A json member meeting a `file` slot (runtime/lang/expect.ts): a file is never a json value, only a part of the request. */
export function expectFile(_value: unknown, path: string): never {
  throw new ValidationError("SVC_ERR_ARGUMENT", `${path} must be a file uploaded with the request, not a value from json`);
}

export function expectFileOrNull(value: unknown, path: string): null {
  if (value === null || value === undefined) return null;
  return expectFile(value, path);
}
