// Keeps one of `process.nextTick`'s queue entries alive for as long as the process serves (and
// one of the trace export thread's, runtime/traces/export-thread.ts). Beside the language
// helpers, not in start/, because that thread, a feature's, keeps one too.
//
// V8 keeps the hidden classes an object literal passes through only while some object has one
// of them. Node's tick entries (`{ [async_id_symbol], [trigger_async_id_symbol], callback,
// args }`) live for a tick, so a full collection that finds none queued drops those classes,
// and the feedback nextTick's optimized code kept of them is cleared with them. V8 then counts
// the next entry's class as a second one and marks the feedback megamorphic for good: from the
// next optimization on, every entry's two symbol-keyed properties are defined by a runtime call
// (about 1,200 instructions each). bench:observability caught a traced server there, 30 such
// calls a get_task request, +37,000 instructions a request; a server without traces collects
// less and got there more rarely (bench/README.md). One kept entry keeps the classes alive.

import { createHook } from "node:async_hooks";

const kept: object[] = [];

function nothing(): void {}

/** Takes an entry as nextTick makes one (an init hook sees it) and keeps it; once per thread (an isolate has its own classes). */
export function keepTickShapes(): readonly object[] {
  if (kept.length > 0) return kept;
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === "TickObject") kept.push(resource);
    },
  });
  hook.enable();
  try {
    // With arguments and without: the entry's `args` field holds either.
    process.nextTick(nothing);
    process.nextTick(nothing, 0);
  } finally {
    hook.disable();
  }
  return kept;
}
