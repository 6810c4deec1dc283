// jest's globalSetup (jest.config.js): runs once before any suite of a run. It empties the
// build cache of tests/support/build-cache.ts, so each run builds each project afresh with
// the compiler it was compiled with, once.

import { rmSync } from "node:fs";
import { testCacheDir } from "./paths.js";

export default function globalSetup(): void {
  rmSync(testCacheDir, { recursive: true, force: true });
}
