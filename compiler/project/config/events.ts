// svc.toml `[events]` (docs/language.md §2.9): who receives which events, and how deliveries
// are retried. Which event names exist is known only once modules are read: the analyzer
// checks `events` lists against declarations (SVC8060), at the places recorded here.

import { configCodes } from "../../diagnostics/codes/config.js";
import type { Span } from "../../parse/ast.js";
import { formatPath, integer, mapOf, strings, table, text } from "./readers.js";
import type { ReadContext, Reader, StringCheck } from "./readers.js";
import type { TomlPath } from "./locate.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** setTimeout's largest delay. */
const MAX_MS = 2_147_483_647;

export interface SubscriberConfig {
  url: string;
  /** A credential name: the signing secret. */
  secret: string;
  events: string[];
  /** Where each of `events` is written, for the analyzer's messages. */
  eventSpans: (Span | null)[];
}

export interface EventsConfig {
  subscribers?: Record<string, SubscriberConfig>;
  first_retry_ms?: number;
  max_retry_ms?: number;
  max_attempts?: number;
  timeout_ms?: number;
  poll_ms?: number;
  /** Where svc.toml is and `[events.subscribers]` is written in it: for the analyzer's messages. */
  file?: string;
  at?: Span | null;
}

const webhookUrl: StringCheck = (value) => {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  return url && (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password
    ? null
    : { expected: "an http:// or https:// URL without a user or password", hint: "e.g. https://crm.example.com/hooks/svc" };
};

const credentialName: StringCheck = (value) =>
  IDENTIFIER.test(value) ? null : { expected: "a credential name", hint: "letters, digits and _, declared under [credentials]" };

const eventName: StringCheck = (value) =>
  value === "*" || IDENTIFIER.test(value) ? null : { expected: 'an event name, or "*"', hint: 'e.g. events = ["task_completed"]' };

const subscriberFields = table({ url: text(webhookUrl), secret: text(credentialName), events: strings(eventName) });

const subscriber: Reader<SubscriberConfig> = (ctx, value, path) => {
  const read = subscriberFields(ctx, value, path);
  if (read === undefined) return undefined;
  const raw = value as Record<string, unknown>;
  const examples = { url: 'url = "https://crm.example.com/hooks/svc"', secret: 'secret = "crm_hook"', events: 'events = ["task_completed"]' };
  let complete = true;
  for (const key of ["url", "secret", "events"] as const) {
    if (Object.hasOwn(raw, key)) {
      if (read[key] === undefined) complete = false;
      continue;
    }
    ctx.diagnostics.push(configCodes.missingKey.at(ctx.file, ctx.index.best(path), formatPath(path), key, examples[key]));
    complete = false;
  }
  if (!complete) return undefined;
  const eventSpans = read.events!.map((_, i) => ctx.index.best([...path, "events", i]));
  return { url: read.url!, secret: read.secret!, events: read.events!, eventSpans };
};

function subscriberName(ctx: ReadContext, key: string, path: TomlPath): boolean {
  if (IDENTIFIER.test(key)) return true;
  ctx.diagnostics.push(
    configCodes.wrongType.at(ctx.file, ctx.index.key(path) ?? ctx.index.best(path), formatPath(path), "a subscriber name (letters, digits and _)", "another name", undefined),
  );
  return false;
}

export const eventsTable = table({
  subscribers: mapOf(subscriber, subscriberName),
  first_retry_ms: integer(1, MAX_MS),
  max_retry_ms: integer(1, MAX_MS),
  max_attempts: integer(1, 1000),
  timeout_ms: integer(1, MAX_MS),
  poll_ms: integer(10, MAX_MS),
});

/** Subscribers' secrets, each a credential [credentials] should declare (SVC4009 otherwise). */
export function subscriberSecrets(events: EventsConfig): { path: TomlPath; name: string }[] {
  return Object.entries(events.subscribers ?? {}).map(([name, s]) => ({ path: ["events", "subscribers", name, "secret"], name: s.secret }));
}
