// Watching a project for `svc dev`: node:fs watchers on the project folder and each folder
// under it, filtered to what a build reads (module files, route files, pages and their
// page.jq, the layout, public/, svc.toml), with the burst of events one save makes collapsed
// into one call. One watcher per folder rather than `recursive: true`: on Linux, Node 20's
// recursive watcher stops reporting a file once an editor has replaced it by a rename (as
// vim and `sed -i` do), where a folder's own watcher reports every name written into it.

import { type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { join, relative, sep } from "node:path";

/** Folders no build reads: outputs, dependencies, databases, version control. */
const IGNORED_DIRS = new Set(["node_modules", ".git", "dist", "data", "tmp"]);

/** The segments of a project-relative path, whatever the platform's separator. */
function segments(path: string): string[] {
  return path.split(sep).join("/").split("/");
}

/** Whether a change to `path` (relative to the project root) can change the build. */
export function isWatched(path: string): boolean {
  const parts = segments(path);
  if (parts.some((p) => IGNORED_DIRS.has(p) || p.startsWith("build") || p.startsWith("."))) return false;
  const name = parts[parts.length - 1];
  // Editors' temporaries: vim's 4913 and foo~, emacs's #foo#, swap files.
  if (name === "4913" || name.endsWith("~") || name.startsWith("#") || /\.sw[a-p]$/.test(name)) return false;
  if (parts[0] === "public") return true;
  return /\.(svc|html|jq|toml)$/.test(name);
}

/**
 * Whether a save of just these paths can change no more than a page's main area: module
 * and route files (data), page templates and page.jq. A layout, svc.toml, anything under
 * public/ (styles, scripts) or an unnamed change can change the whole page.
 */
export function onlyMainArea(paths: readonly string[]): boolean {
  if (paths.length === 0) return false;
  return paths.every((path) => {
    const parts = segments(path);
    const name = parts[parts.length - 1];
    if (parts[0] === "public" || name === "layout.html") return false;
    return name.endsWith(".svc") || name === "page.html" || name === "page.jq";
  });
}

export interface Watcher {
  close(): void;
}

/**
 * Calls `onChange` with the changed paths (relative to `root`) once the events of a save
 * have stopped for `debounceMs`. A watcher error goes to `onError`.
 */
export function watchProject(
  root: string,
  onChange: (paths: string[]) => void,
  onError: (err: Error) => void,
  debounceMs = 15,
): Watcher {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const watchers = new Map<string, FSWatcher>();
  const flush = (): void => {
    timer = null;
    const paths = [...pending].sort();
    pending = new Set();
    onChange(paths);
  };
  const changed = (path: string): void => {
    pending.add(path);
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const add = (dir: string): void => {
    if (watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: true }, (_event, filename) => {
        // Without a name the platform could not say what changed: rebuild to be safe.
        if (filename === null) return changed(relative(root, dir) || ".");
        const full = join(dir, filename.toString());
        const path = relative(root, full);
        if (isDirectory(full)) {
          // A new folder (e.g. a new page's): watch it, and what it already holds counts as changed.
          if (!isIgnoredDir(path)) addTree(full, true);
          return;
        }
        if (isWatched(path)) changed(path);
      });
    } catch (err) {
      // Removed between listing and watching: nothing to watch.
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
      throw err;
    }
    watcher.on("error", (err: NodeJS.ErrnoException) => {
      watcher.close();
      watchers.delete(dir);
      // A watched folder that was removed ends its watcher; only the root's loss is an error.
      if (dir === root) onError(err);
      else changed(relative(root, dir));
    });
    watchers.set(dir, watcher);
  };
  const addTree = (dir: string, report: boolean): void => {
    add(dir);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(dir, name);
      const path = relative(root, full);
      if (isDirectory(full)) {
        if (!isIgnoredDir(path)) addTree(full, report);
      } else if (report && isWatched(path)) {
        changed(path);
      }
    }
  };
  addTree(root, false);
  return {
    close(): void {
      if (timer !== null) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}

function isIgnoredDir(path: string): boolean {
  return path.split(sep).some((p) => IGNORED_DIRS.has(p) || p.startsWith("build") || p.startsWith("."));
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
