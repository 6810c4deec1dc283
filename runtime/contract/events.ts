// What the generated server says about events (docs/language.md §2.9): svc.toml's
// subscribers and delivery settings. Secrets are credential names, read at start.

export interface SubscriberSpec {
  /** The name under `[events.subscribers.<name>]`: in logs and rows. */
  name: string;
  url: string;
  /** The credential holding the signing secret (`whsec_<base64>`, or raw text). */
  secret: string;
  /** Event names, or `*` for all. */
  events: string[];
}

export interface EventsSpec {
  subscribers: SubscriberSpec[];
  /** The delay after a first failed attempt (ms); each later one doubles, with jitter. */
  firstRetryMs: number;
  /** No retry waits longer than this (ms). */
  maxRetryMs: number;
  /** Attempts before a delivery is kept as failed. */
  maxAttempts: number;
  /** One attempt's limit (ms): past it, the attempt failed and is tried again. */
  timeoutMs: number;
  /** How often a server looks for work it was not woken for: retries due, a stopped server's events (ms). */
  pollMs: number;
}

/** The part of the outbox a call needs: told after a commit that wrote events. */
export interface OutboxWake {
  wake(): void;
}
