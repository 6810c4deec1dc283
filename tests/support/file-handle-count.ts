// Preloaded with `node --import` (tests/ops/runtime-load.test.ts): counts the FileHandles the
// process constructs, one for each module Node's ES module loader reads, and writes the count
// to stderr as the process exits.
import EventEmitter from "node:events";

type Init = (this: object, ...args: unknown[]) => void;
const emitter = EventEmitter as unknown as { init: Init };
const init = emitter.init;
let fileHandles = 0;
emitter.init = function (this: object, ...args: unknown[]) {
  if (this.constructor?.name === "FileHandle") fileHandles++;
  init.apply(this, args);
};
process.on("exit", () => process.stderr.write(`file handles: ${fileHandles}\n`));
