// Discovery's view of the disk with the editor's open buffers laid over it: an unsaved
// edit is what the user means, so a check reads the buffer, not the file behind it.

import { type DiscoverFs, nodeFs } from "../project/discover.js";

export class OverlayFs implements DiscoverFs {
  /** Absolute path → text of each open document. */
  readonly open = new Map<string, string>();

  kind(p: string): ReturnType<DiscoverFs["kind"]> {
    // A new file not yet saved exists for the check as soon as it is open.
    return this.open.has(p) ? "file" : nodeFs.kind(p);
  }

  list(dir: string): string[] {
    const names = new Set(nodeFs.kind(dir) === "dir" ? nodeFs.list(dir) : []);
    for (const p of this.open.keys()) {
      const slash = p.lastIndexOf("/");
      if (p.slice(0, slash) === dir) names.add(p.slice(slash + 1));
    }
    return [...names];
  }

  read(file: string): string {
    return this.open.get(file) ?? nodeFs.read(file);
  }

  realpath(p: string): string {
    return this.open.has(p) && nodeFs.kind(p) === null ? p : nodeFs.realpath(p);
  }
}
