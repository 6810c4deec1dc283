// Makes `import "svc/runtime"` resolve inside this checkout the way it does in a user's
// project (through node_modules/svc), so generated servers built anywhere under the
// repository (examples, tests, bench) run without installing svc into itself.
import { lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const link = join(root, "node_modules", "svc");
mkdirSync(dirname(link), { recursive: true });
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link) === "..") process.exit(0);
  rmSync(link, { recursive: true, force: true });
} catch {
  // No link yet.
}
symlinkSync("..", link, "dir");
