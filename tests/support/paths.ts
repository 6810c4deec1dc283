import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: tests run compiled from build/tests/…, three levels below it. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * This run's build cache (tests/support/build-cache.ts): `.test-cache` in the out dir these
 * tests were compiled into, emptied by global-setup.ts when a run starts.
 */
export const testCacheDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", ".test-cache");
