import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: tests run compiled from build/tests/…, three levels below it. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
