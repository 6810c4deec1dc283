import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DiscoverTarget } from "../project/discover.js";

export interface TargetFlags {
  module?: string;
  app?: string;
  project?: string;
  /** A bare folder: its mode is inferred. */
  positional?: string;
}

/**
 * `--module D`, `--app D`, `--project D`, or a bare folder: a folder with svc.toml is a
 * project, one with `.svc` files a module, any other an app (a folder of modules).
 * Returns a message instead when the flags contradict each other.
 */
export function resolveTarget(flags: TargetFlags): DiscoverTarget | string {
  const given = (["module", "app", "project"] as const).filter((k) => flags[k] !== undefined);
  if (given.length > 1 || (given.length === 1 && flags.positional !== undefined)) {
    return "give one target: --module DIR, --app DIR, --project DIR, or a folder";
  }
  if (given.length === 1) return { mode: given[0], dir: flags[given[0]]! };
  const dir = flags.positional ?? ".";
  return { mode: inferMode(dir), dir };
}

function inferMode(dir: string): DiscoverTarget["mode"] {
  if (existsSync(join(dir, "svc.toml"))) return "project";
  try {
    if (statSync(dir).isDirectory() && readdirSync(dir).some((f) => f.endsWith(".svc"))) return "module";
  } catch {
    // A missing folder: discovery reports it with a proper diagnostic.
  }
  return "app";
}
