// The built server loads the runtime with `require` (docs/language.md, "Generated code"): Node's
// ES module loader constructs a FileHandle, an EventEmitter, for each module it reads, and the
// runtime's ~140 of them, made before the first request, leave V8's caches for constructing an
// EventEmitter on their slow path for every response. Counted from inside the server process.

import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "../support/jest.js";
import { buildTo, removeDir, startServer } from "../support/server.js";
import { buildServer, exampleDir } from "./support.js";

const counter = fileURLToPath(new URL("../support/file-handle-count.js", import.meta.url));
const dirs: string[] = [];

afterAll(() => dirs.forEach(removeDir));

/** FileHandles the server at `dir` constructed from start to exit, serving nothing. */
async function fileHandlesOfAStart(dir: string): Promise<number> {
  dirs.push(dir);
  const server = await startServer(dir, [], { NODE_OPTIONS: `--import=${counter}` });
  expect(await server.stop()).toBe(0);
  const line = server.output.find((l) => l.startsWith("file handles: "));
  if (line === undefined) throw new Error(`no count printed:\n${server.output.join("\n")}`);
  return Number(line.slice("file handles: ".length));
}

test("svc build's server reads the runtime's modules without a FileHandle each", async () => {
  const required = await fileHandlesOfAStart(await buildTo({ mode: "project", dir: exampleDir }));
  // The same server importing the runtime (as one built to run from memory does, by URL).
  const imported = await fileHandlesOfAStart(await buildServer());
  expect(imported).toBeGreaterThan(100);
  // What remains: server.js itself and the database driver's modules, imported when it opens.
  expect(required).toBeLessThanOrEqual(20);
});
