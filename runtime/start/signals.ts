// SIGTERM and SIGINT (docs/service.md §8): the first starts a graceful stop and exits 0 when it is
// done; a second one exits at once (code 128 + the signal's number, as a shell reports a
// process killed by it), for an operator who does not want to wait.

import { constants } from "node:os";
import type { Logger } from "../core/log.js";

export interface StopActions {
  /** Graceful stop; the process exits 0 after it. */
  close(): Promise<void>;
  /** Runs before the immediate exit on a second signal (the primary kills its workers). */
  abort?(): void;
}

/** Installs the handlers; returns a function that removes them. */
export function exitOnSignals(actions: StopActions, log: Logger, announce = true): () => void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log.warn("second signal; exiting now", { signal });
      log.flush();
      actions.abort?.();
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
    stopping = true;
    if (announce) log.info("shutting down", { signal });
    else log.debug("shutting down", { signal, pid: process.pid });
    // Out before the workers hear of it: their lines share this stdout and must come after.
    log.flush();
    void actions.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return () => {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  };
}
