// Mends known defects in installed dependencies, run by `npm install` / `npm ci`
// (package.json "postinstall"), so the runtime, the tests and `svc deploy`'s archive (which
// copies node_modules) all run the mended code. Each patch replaces exact text and checks
// it: a dependency whose text differs (another version, mended upstream) is left alone and
// said so, never half-patched.
//
// postgres 3.4.9 (porsager/postgres#1066, #1154, #1208): when a connection dies during a
// transaction, `sql.begin` sends its ROLLBACK on the dead connection. The write is deferred
// to a setImmediate that finds the socket gone and throws where nothing can catch it: the
// whole server exits. And a connection torn down with a write pending keeps a stale timer,
// so after reconnecting it never flushes again. The patch refuses a query on a connection
// with no socket (CONNECTION_CLOSED, as for its other queries), forgets a pending write at
// teardown, and makes the deferred write a no-op once the socket is gone.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const MARK = "/* svc: patched (compiler/tools/patch-deps.mjs) */";

const patches = [
  {
    name: "postgres",
    version: "3.4.9",
    files: ["src/connection.js", "cjs/src/connection.js", "cf/src/connection.js"],
    edits: [
      {
        from: "  function execute(q) {\n    if (terminated)\n      return queryError(q, Errors.connection('CONNECTION_DESTROYED', options))\n",
        to:
          "  function execute(q) {\n    if (terminated)\n      return queryError(q, Errors.connection('CONNECTION_DESTROYED', options))\n\n" +
          "    if (socket === null && connection.queue === queues.closed)\n      return queryError(q, Errors.connection('CONNECTION_CLOSED', options))\n",
      },
      {
        from: "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n",
        to: "  function nextWrite(fn) {\n    if (socket === null)\n      return chunk = nextWriteTimer = null, false\n    const x = socket.write(chunk, fn)\n",
      },
      {
        from: "    terminated = true\n    if (stream || query || initial || sent.length)\n      error(Errors.connection('CONNECTION_DESTROYED', options))\n\n    clearImmediate(nextWriteTimer)\n",
        to: "    terminated = true\n    if (stream || query || initial || sent.length)\n      error(Errors.connection('CONNECTION_DESTROYED', options))\n\n    clearImmediate(nextWriteTimer)\n    nextWriteTimer = null\n",
      },
      {
        from: "    incomings = null\n    clearImmediate(nextWriteTimer)\n",
        to: "    incomings = null\n    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n",
      },
    ],
  },
];

/** The folder of the copy svc's runtime loads: ./node_modules here, the project's when svc is a dependency. */
function installed(name) {
  let entry;
  try {
    entry = createRequire(join(root, "package.json")).resolve(name);
  } catch {
    return null;
  }
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === name) return dir;
  }
  return null;
}

for (const patch of patches) {
  const dir = installed(patch.name);
  if (dir === null) continue;
  const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (version !== patch.version) {
    console.warn(`patch-deps: ${patch.name} is ${version}, not ${patch.version}: left as it is`);
    continue;
  }
  for (const file of patch.files) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    let text = readFileSync(path, "utf8");
    if (text.startsWith(MARK)) continue;
    const missing = patch.edits.filter((e) => text.split(e.from).length !== 2);
    if (missing.length > 0) {
      console.warn(`patch-deps: ${patch.name}/${file} differs from ${patch.version} as published: left as it is`);
      continue;
    }
    for (const e of patch.edits) text = text.replace(e.from, () => e.to);
    writeFileSync(path, `${MARK}\n${text}`);
  }
}
