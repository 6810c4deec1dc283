// Prettier, on a worker thread kept for the life of the process. A cold `svc build` spends
// most of its time loading prettier and TypeScript; on its own thread, prettier loads while
// the main thread loads TypeScript, parses and analyzes (warmFormatter, called as a build
// starts). The standalone build with just the TypeScript plugin loads in a fraction of the
// time of prettier's main entry.

import { Worker } from "node:worker_threads";
import type { FormatReply, FormatRequest } from "./format-worker.js";

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { done: (text: string) => void; fail: (err: Error) => void }>();

function formatter(): Worker {
  if (worker !== null) return worker;
  const started = new Worker(new URL("./format-worker.js", import.meta.url));
  started.on("message", (reply: FormatReply) => {
    const entry = waiting.get(reply.id);
    if (entry === undefined) return;
    waiting.delete(reply.id);
    if (waiting.size === 0) started.unref();
    if (reply.ok) entry.done(reply.text);
    else entry.fail(new Error(`prettier could not format the generated server: ${reply.error}`));
  });
  const lost = (err: Error): void => {
    if (worker === started) worker = null;
    for (const entry of waiting.values()) entry.fail(err);
    waiting.clear();
  };
  started.on("error", lost);
  started.on("exit", (code) => lost(new Error(`the formatter thread exited (code ${code})`)));
  // Idle, it must not keep a CLI or a test process alive. After the listeners: adding a
  // "message" listener refs the worker again.
  started.unref();
  worker = started;
  return started;
}

/** Starts loading prettier now, so it is ready when the generator needs it. */
export function warmFormatter(): void {
  formatter();
}

/** `source` formatted by prettier with fixed options. */
export function format(source: string): Promise<string> {
  const thread = formatter();
  const id = nextId++;
  return new Promise<string>((done, fail) => {
    waiting.set(id, { done, fail });
    // Busy, it keeps the process alive until the answer comes.
    thread.ref();
    thread.postMessage({ id, source } satisfies FormatRequest);
  });
}
