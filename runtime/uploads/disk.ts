// The folder store: `<dir>/<first two hex digits>/<sha256>`. A file arrives in
// `<dir>/.incoming/<random>` (multipart.ts) and is renamed into place once whole, so a
// reader never sees a partial file; the same bytes uploaded twice are one file.

import { createReadStream } from "node:fs";
import { mkdir, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { UploadedFile } from "./file.js";
import type { StoredBytes, UploadStore } from "./store.js";
import { SvcError } from "../core/errors.js";

const SHA256 = /^[0-9a-f]{64}$/u;

export class DiskStore implements UploadStore {
  constructor(private readonly dir: string) {}

  private path(sha256: string): string {
    // The key is checked where it becomes a path, whatever checked it before.
    if (!SHA256.test(sha256)) throw new SvcError("SVC_ERR_INTERNAL", `not a sha256: ${JSON.stringify(sha256)}`);
    return join(this.dir, sha256.slice(0, 2), sha256);
  }

  async put(file: UploadedFile): Promise<void> {
    const to = this.path(file.sha256);
    await mkdir(join(this.dir, file.sha256.slice(0, 2)), { recursive: true });
    try {
      await rename(file.temp, to);
    } catch (err) {
      await unlink(file.temp).catch(() => undefined);
      throw err;
    }
  }

  async get(sha256: string): Promise<StoredBytes | null> {
    if (!SHA256.test(sha256)) return null;
    const path = this.path(sha256);
    try {
      const s = await stat(path);
      if (!s.isFile()) return null;
      return { size: s.size, open: () => createReadStream(path) };
    } catch {
      return null;
    }
  }
}
