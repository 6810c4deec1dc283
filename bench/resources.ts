import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";

const STOP_GRACE_MS = 5000;

/**
 * Everything the bench must undo: child processes (servers, load drivers) and temp dirs.
 * `release()` is the orderly path (SIGTERM, wait, SIGKILL); `releaseSync()` is the last resort
 * from process.on("exit"), where nothing asynchronous runs any more.
 */
export class Resources {
  private readonly children = new Set<ChildProcess>();
  private readonly dirs = new Set<string>();

  track(child: ChildProcess): void {
    this.children.add(child);
    child.once("exit", () => this.children.delete(child));
  }

  trackDir(dir: string): void {
    this.dirs.add(dir);
  }

  async release(): Promise<void> {
    await Promise.all([...this.children].map((child) => stopChild(child)));
    this.removeDirs();
  }

  releaseSync(): void {
    for (const child of this.children) child.kill("SIGKILL");
    this.children.clear();
    this.removeDirs();
  }

  private removeDirs(): void {
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
    this.dirs.clear();
  }
}

/** SIGTERM, then SIGKILL if the child is still there after a grace period. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
