// File uploads (docs/language.md §2.7, docs/operations.md "Uploads"): the multipart
// reader with its limits, the store the bytes go to, and the answer that serves them.
// The server makes one Uploads at start when the spec has `uploads`.

import type { IncomingMessage, ServerResponse } from "node:http";
import { resolve } from "node:path";
import type { Database } from "../contract/index.js";
import { DatabaseStore } from "./database.js";
import { DiskStore } from "./disk.js";
import { readMultipart } from "./multipart.js";
import { sendStoredFile } from "./serve.js";
import type { UploadStore } from "./store.js";

export { expectFile, expectFileOrNull, fileArg, UploadedFile, type FileValue } from "./file.js";
export { GET_UPLOAD, PUT_UPLOAD, UPLOADS_TABLE } from "./database.js";
export { type FileParts, isMultipart } from "./parts.js";

/** svc.toml `[uploads]`, with its defaults filled in by the compiler. */
export interface UploadsSpec {
  store: "disk" | "database";
  /** Files (disk) and the temporary files of every request (both stores); relative to the working folder. */
  dir: string;
  maxFileSize: number;
  maxFiles: number;
  maxRequestSize: number;
}

export class Uploads {
  private readonly store: UploadStore;
  private readonly limits: UploadsSpec;

  constructor(spec: UploadsSpec, db: Database) {
    this.limits = { ...spec, dir: resolve(spec.dir) };
    this.store = spec.store === "database" ? new DatabaseStore(db) : new DiskStore(this.limits.dir);
  }

  get maxRequestSize(): number {
    return this.limits.maxRequestSize;
  }

  /** The arguments of a multipart body to something that takes the files named in `accepts`. */
  read(req: IncomingMessage, accepts: ReadonlySet<string>): Promise<Record<string, unknown>> {
    return readMultipart(req, this.limits, this.store, accepts);
  }

  send(req: IncomingMessage, res: ServerResponse, result: unknown): Promise<void> {
    return sendStoredFile(req, res, result, this.store);
  }
}
