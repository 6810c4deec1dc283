// Where uploaded bytes are kept, by their SHA-256 (content-addressed: the same bytes are
// kept once, and no name a client chose is ever part of a path). Two stores, one
// interface: a folder (disk.ts, the default) and a table (database.ts).

import type { Readable } from "node:stream";
import type { UploadedFile } from "./file.js";

export interface StoredBytes {
  size: number;
  /** The bytes, streamed from the disk or from the row read. */
  open(): Readable;
}

export interface UploadStore {
  /** Takes the file's bytes from its temporary file (moved, or read and inserted); the temporary file is gone after. */
  put(file: UploadedFile): Promise<void>;
  /** The bytes with this sha256; null when the store has none. */
  get(sha256: string): Promise<StoredBytes | null>;
}
