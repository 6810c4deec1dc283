// The little of the file system discovery needs, behind an interface so that callers
// (the dev server's watcher, tests) can hand it another view of the disk.

import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";

export type EntryKind = "file" | "dir" | "other";

export interface DiscoverFs {
  /** What is at `path`, following symlinks; null when nothing (readable) is there. */
  kind(path: string): EntryKind | null;
  /** The names in a folder, in any order. Throws when the folder cannot be read. */
  list(dir: string): string[];
  /** A file's text as UTF-8. Throws when it cannot be read. */
  read(file: string): string;
  /** The canonical path, so a symlink that loops back is walked once. */
  realpath(path: string): string;
}

export const nodeFs: DiscoverFs = {
  kind(path) {
    try {
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat) return null;
      return stat.isDirectory() ? "dir" : stat.isFile() ? "file" : "other";
    } catch {
      // ELOOP, EACCES on a parent, ENOTDIR: nothing usable is there.
      return null;
    }
  },
  list: (dir) => readdirSync(dir),
  read: (file) => readFileSync(file, "utf8"),
  realpath: (path) => realpathSync(path),
};
