// The contract of a `webhook` block between the generated server and runtime/webhooks/
// (contract/index.ts holds it with the rest of the contract).
import type { CallInput, Executor, StatementSpec } from "./server.js";
import type { Isolation } from "./transactions.js";

export type WebhookProvider = "github" | "stripe" | "slack" | "standard" | "hmac";

/** The arguments a webhook hands its handler. */
export type WebhookParam = "payload" | "event" | "delivery";

/** A `webhook` block (docs/language.md §2.4). */
export interface WebhookSpec {
  /** `task_tracker.github_issues` */
  name: string;
  provider: WebhookProvider;
  /** The credential holding the signing secret. */
  credential: string;
  /** Answers `POST <path>`, matched exactly. */
  path: string;
  /** The handler's parameters, in its declared order: only these are passed. */
  params: WebhookParam[];
  /** Runs the handler action inside the delivery's transaction. */
  handler(tx: Executor, input: CallInput): Promise<unknown>;
  isolation?: Isolation; // the handler's `transaction` clause, when not serializable
}
