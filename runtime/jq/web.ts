// The jq-web fallback for programs outside the compiled subset, run on a worker thread
// (runtime/jq/web-worker.ts) so that neither a program that never ends (`del(.[nan])`)
// nor one that breaks jq-web's WebAssembly instance for good takes the server with it:
// past the deadline, or after a crash, the thread is terminated and a fresh one started.
// Calls run one at a time, in order, on one thread per server process.

import { Worker } from "node:worker_threads";
import { JqError } from "./errors.js";
import type { JqWebReply, JqWebRequest } from "./web-worker.js";

export type JqRunner = (program: string, input: unknown, vars: { params: unknown; query: unknown }) => Promise<unknown[]>;

/** How long one fallback call may run (docs/language.md, Pages). */
export const JQ_FALLBACK_TIMEOUT_MS = 1000;

/** Calls waiting for the thread past this many are refused rather than queued. */
export const JQ_FALLBACK_MAX_WAITING = 64;

const WORKER_URL = new URL("./web-worker.js", import.meta.url);

/**
 * The program inside the wrapper that binds `$params` and `$query` from the input document
 * (JSON, never spliced into program text). The program starts on the wrapper's first line,
 * so `$__loc__` and jq's error lines count as in page.jq; the newline before `)` ends a
 * trailing comment.
 */
export function runFilter(program: string): string {
  return `.p as $params | .q as $query | .i | (${program}\n)`;
}

/** The same wrapper for compiling only: jq checks the whole program and runs none of it. */
export function checkFilter(program: string): string {
  return `null as $params | null as $query | empty | (${program}\n)`;
}

/**
 * jq-web could not give an answer: `timeout` (the call ran past its deadline), `crash`
 * (jq-web's instance broke on it) or `busy` (too many calls were waiting).
 */
export class JqWebFailure extends Error {
  constructor(
    readonly reason: "timeout" | "crash" | "busy",
    message: string,
  ) {
    super(message);
    this.name = "JqWebFailure";
  }
}

interface Call {
  id: number;
  doc: string;
  filter: string;
  resolve(outputs: unknown[]): void;
  reject(err: Error): void;
}

export class JqWeb {
  /** Settles when jq-web has loaded on the first thread; rejects if it cannot load. */
  readonly ready: Promise<void>;
  private worker!: Worker;
  private workerReady = false;
  private current: Call | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly waiting: Call[] = [];
  private nextId = 0;
  private failed: Error | null = null;
  private closed = false;
  private markReady!: () => void;
  private markFailed!: (err: Error) => void;
  /** Threads started, the first included: a test can see that a crash or timeout replaced one. */
  threadsStarted = 0;

  constructor(readonly timeoutMs: number = JQ_FALLBACK_TIMEOUT_MS) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.markReady = resolve;
      this.markFailed = reject;
    });
    this.ready.catch(() => undefined);
    this.start();
  }

  /** All outputs of `program` on `input`, in order; a JqError for jq's errors. */
  run(program: string, input: unknown, vars: { params: unknown; query: unknown }): Promise<unknown[]> {
    if (this.failed !== null) return Promise.reject(this.failed);
    if (this.closed) return Promise.reject(new Error("jq-web was closed"));
    if (this.waiting.length >= JQ_FALLBACK_MAX_WAITING) {
      return Promise.reject(new JqWebFailure("busy", `more than ${JQ_FALLBACK_MAX_WAITING} jq-web calls are waiting`));
    }
    const doc = JSON.stringify({ i: input ?? null, p: vars.params ?? null, q: vars.query ?? null });
    return new Promise<unknown[]>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, doc, filter: runFilter(program), resolve, reject });
      this.dispatch();
    });
  }

  /** Stops the thread; waiting calls are refused. */
  async close(): Promise<void> {
    this.closed = true;
    this.failAll(new Error("jq-web was closed"));
    await this.worker.terminate();
  }

  private start(): void {
    this.threadsStarted++;
    this.workerReady = false;
    const worker = new Worker(WORKER_URL);
    this.worker = worker;
    // An idle jq-web thread must not keep a stopping server alive; a pending call's timer does.
    worker.unref();
    worker.on("message", (reply: JqWebReply) => {
      if (worker === this.worker) this.onReply(reply);
    });
    worker.on("error", (err) => {
      if (worker === this.worker) this.onThreadLost(err);
    });
    worker.on("exit", (code) => {
      if (worker === this.worker && !this.closed) this.onThreadLost(new Error(`the jq-web thread exited (${code})`));
    });
  }

  private dispatch(): void {
    if (!this.workerReady || this.current !== null || this.closed) return;
    const call = this.waiting.shift();
    if (call === undefined) return;
    this.current = call;
    const request: JqWebRequest = { id: call.id, doc: call.doc, filter: call.filter };
    this.worker.postMessage(request);
    this.timer = setTimeout(() => {
      this.finish(new JqWebFailure("timeout", `the page.jq program ran past ${this.timeoutMs} ms on jq-web`));
      this.replace();
    }, this.timeoutMs);
  }

  private onReply(reply: JqWebReply): void {
    if (reply.kind === "ready") {
      this.workerReady = true;
      this.markReady();
      this.dispatch();
      return;
    }
    if (reply.kind === "unavailable") {
      // jq-web itself cannot load: every call would fail the same way.
      const err = new Error(`jq-web cannot load: ${reply.message}`);
      this.failed = err;
      this.markFailed(err);
      this.failAll(err);
      void this.worker.terminate();
      return;
    }
    if (this.current === null || reply.id !== this.current.id) return;
    switch (reply.kind) {
      case "ok":
        this.finish(null, parseOutputs(reply.text));
        break;
      case "jq":
        this.finish(new JqError(jqMessage(reply.stderr)));
        break;
      case "crash":
        this.finish(new JqWebFailure("crash", `jq-web crashed on this call (${reply.message}); the next call runs on a fresh instance`));
        this.replace();
        return;
    }
    this.dispatch();
  }

  /** The thread died (or never loaded jq-web): the call on it fails; a thread that had loaded is replaced. */
  private onThreadLost(err: Error): void {
    if (this.failed !== null) return;
    if (!this.workerReady && this.current === null) {
      // The thread cannot even start: every call would fail the same way.
      this.failed = err;
      this.markFailed(err);
      this.failAll(err);
      return;
    }
    this.finish(new JqWebFailure("crash", `the jq-web thread stopped: ${err.message}`));
    this.replace();
  }

  private replace(): void {
    const old = this.worker;
    old.removeAllListeners();
    void old.terminate();
    if (!this.closed) this.start();
  }

  private finish(err: Error | null, outputs: unknown[] = []): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const call = this.current;
    this.current = null;
    if (call === null) return;
    if (err !== null) call.reject(err);
    else call.resolve(outputs);
  }

  private failAll(err: Error): void {
    this.finish(err);
    for (const call of this.waiting.splice(0)) call.reject(err);
  }
}

function parseOutputs(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown);
}

/** jq's message without its `jq: error (at …): ` prefix. */
export function jqMessage(stderr: string): string {
  return stderr.replace(/^jq: error \(at [^)]*\): /, "").trim();
}

let shared: Promise<JqRunner> | null = null;

/** The process's jq-web thread, started once; settles when jq-web has loaded. */
export function loadJqWeb(): Promise<JqRunner> {
  shared ??= (async () => {
    const jq = new JqWeb();
    await jq.ready;
    return (program, input, vars) => jq.run(program, input, vars);
  })();
  return shared;
}
