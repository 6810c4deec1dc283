// jq itself compiles every program left to jq-web, once, at build time: what jq refuses
// (`break $foo` with no `label $foo`, `. as {(true):$foo}`, a name a `def` cannot see)
// would otherwise be accepted by `svc build` and fail on every request. jq-web runs on the
// runtime's worker thread (runtime/jq/web-worker.ts); compileJq is synchronous, so the
// compiler waits for the thread's answer on a shared counter the worker bumps.

import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { checkFilter, jqMessage } from "../../runtime/jq/web.js";
import type { JqWebReply, JqWebRequest } from "../../runtime/jq/web-worker.js";

/** Loading jq-web and compiling one program take milliseconds; past this the check gives up. */
const CHECK_TIMEOUT_MS = 15_000;

const WORKER_URL = new URL("../../runtime/jq/web-worker.js", import.meta.url);

export type JqCheck =
  | { ok: true }
  /** jq's compile errors, each with the page.jq line it names (null when it names none). */
  | { ok: false; errors: { message: string; line: number | null }[] }
  /** jq-web cannot run here: the program was not checked. */
  | { ok: "unchecked"; why: string };

interface Thread {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
}

let thread: Thread | null = null;
let nextId = 0;

/** Compiles `program` with jq-web (as the server's fallback wraps it) and runs none of it. */
export function checkWithJq(program: string): JqCheck {
  const reply = ask(checkFilter(program));
  if (reply === null)
    return { ok: false, errors: [{ message: `jq-web did not finish compiling it within ${CHECK_TIMEOUT_MS} ms`, line: null }] };
  switch (reply.kind) {
    case "ok":
      return { ok: true };
    case "jq":
      // Exit 3 is jq's "compile error"; anything else ran, which `empty |` forbids.
      return reply.exitCode === 3 ? { ok: false, errors: compileErrors(reply.stderr, program) } : { ok: true };
    case "crash":
      return { ok: false, errors: [{ message: `jq-web crashed compiling it (${reply.message})`, line: null }] };
    case "unavailable":
    case "ready":
      return { ok: "unchecked", why: reply.kind === "unavailable" ? reply.message : "no answer" };
  }
}

function ask(filter: string): JqWebReply | null {
  const t = (thread ??= startThread());
  const id = nextId++;
  const request: JqWebRequest = { id, doc: "null", filter };
  t.port.postMessage(request);
  const deadline = Date.now() + CHECK_TIMEOUT_MS;
  for (;;) {
    const seen = Atomics.load(t.signal, 0);
    const got = receiveMessageOnPort(t.port);
    if (got !== undefined) {
      const reply = got.message as JqWebReply;
      // `ready` (or `unavailable`) comes first, once per thread; the answer to `id` follows.
      if (reply.id !== id) continue;
      if (reply.kind === "crash") stopThread();
      return reply;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      stopThread();
      return null;
    }
    Atomics.wait(t.signal, 0, seen, left);
  }
}

function startThread(): Thread {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_URL, { workerData: { port: port2, signal }, transferList: [port2] });
  // The compiler's process ends when its work does, whatever this idle thread is doing.
  worker.unref();
  port1.unref();
  return { worker, port: port1, signal };
}

function stopThread(): void {
  if (thread === null) return;
  void thread.worker.terminate();
  thread.port.close();
  thread = null;
}

/**
 * jq's stderr for a compile failure: `jq: error: <message> at <top-level>, line <n>:`,
 * the line's text, once per error, then `jq: <n> compile error(s)`.
 */
function compileErrors(stderr: string, program: string): { message: string; line: number | null }[] {
  const lines = program.split("\n").length;
  const errors: { message: string; line: number | null }[] = [];
  for (const m of jqMessage(stderr).matchAll(/^jq: error: (.*?)(?: at <top-level>, line (\d+):)?$/gm)) {
    const line = m[2] === undefined ? null : Math.min(Number(m[2]), lines);
    errors.push({ message: readable(m[1]), line });
  }
  if (errors.length === 0) errors.push({ message: jqMessage(stderr), line: null });
  return errors;
}

/** jq names a label by its internal variable: `$*label-foo`. */
function readable(message: string): string {
  return message.replace(/^\$\*label-(\w+) is not defined$/, "`break $$$1` has no enclosing `label $$$1`");
}
