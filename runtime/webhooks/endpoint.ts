// A declared webhook as an endpoint of the route table (docs/language.md §2.4): `POST <path>`,
// the raw body verified for its provider before anything is parsed, then the handler run
// once per delivery id (deliveries.ts). Any bad, missing or stale signature is a 401.
// Keys are made from the credentials once, at start: a secret that cannot be a key for
// its provider stops the server there, not at the first delivery.

import type { Credentials } from "../core/credentials.js";
import { HttpError, StartupError } from "../core/errors.js";
import type { Logger } from "../core/log.js";
import type { CallContext, CallInput, Database, EndpointSpec, Spans, WebhookSpec } from "../contract/index.js";
import { recordDelivery } from "./deliveries.js";
import { parsePayload } from "./payload.js";
import { VERIFIERS } from "./providers.js";
import { WebhookReply } from "./reply.js";
import { Rejected, stringField, type Verifier } from "./verifier.js";

/** Seconds since the Unix epoch; tests pass a fake one. */
export type Clock = () => number;

const systemClock: Clock = () => Date.now() / 1000;
const EMPTY = Buffer.alloc(0);
const DUPLICATE = Symbol("already handled");

/** Each webhook's endpoint, by name: what its route-table entry leads to. Throws StartupError for a secret its provider cannot use. */
export function webhookEndpoints(
  webhooks: readonly WebhookSpec[],
  credentials: Credentials,
  log: Logger,
  spans: Spans | null = null,
  clock: Clock = systemClock,
): Map<string, EndpointSpec> {
  const out = new Map<string, EndpointSpec>();
  for (const spec of webhooks) {
    const verifier = VERIFIERS[spec.provider];
    let key: Buffer;
    try {
      key = verifier.key(credentials.get(spec.credential));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new StartupError("SVC_ERR_CREDENTIAL", `credential "${spec.credential}", the secret of webhook ${spec.name}: ${why}`);
    }
    out.set(spec.name, webhookEndpoint(spec, verifier, key, log, clock, spans));
  }
  return out;
}

function webhookEndpoint(spec: WebhookSpec, verifier: Verifier, key: Buffer, log: Logger, clock: Clock, spans: Spans | null): EndpointSpec {
  const verifyName = `webhook verify ${spec.name}`;
  const verifyAttributes = { "svc.webhook": spec.name, "svc.webhook.provider": spec.provider };
  return {
    kind: "action",
    name: spec.name,
    rawBody: true,
    async run(db: Database, input: CallInput, ctx: CallContext): Promise<unknown> {
      const headers = ctx.req.headers;
      const body = input.raw ?? EMPTY;
      try {
        if (spans === null) verifier.verify(headers, body, key, Math.floor(clock()));
        else spans.within(verifyName, verifyAttributes, db, () => verifier.verify(headers, body, key, Math.floor(clock())));
      } catch (err) {
        if (!(err instanceof Rejected)) throw err;
        log.warn("webhook delivery rejected", { request_id: ctx.requestId, webhook: spec.name, reason: err.message });
        throw new HttpError(401, `webhook signature rejected: ${err.message}`, { code: "SVC_ERR_WEBHOOK_SIGNATURE" });
      }
      const payload = parsePayload(headers, body);
      if (spec.provider === "slack" && stringField(payload, "type") === "url_verification") {
        // Slack's handshake when the URL is configured: echo the challenge; it is not an event.
        return new WebhookReply(200, { challenge: stringField(payload, "challenge") });
      }
      const { event, delivery } = verifier.describe(headers, payload);
      const call: CallInput = { args: handlerArgs(spec, payload, event, delivery), text: false };
      const result = await db.transaction(async (tx) => {
        if (delivery !== null && !(await recordDelivery(tx, spec.name, delivery))) return DUPLICATE;
        return spec.handler(tx, call);
      }, spec.isolation === undefined ? undefined : { isolation: spec.isolation });
      if (result === DUPLICATE) {
        log.info("webhook delivery already handled", { request_id: ctx.requestId, webhook: spec.name, delivery });
        return null;
      }
      return result;
    },
  };
}

/**
 * Only the parameters the handler declares, and none that is null: an absent argument
 * takes the handler's default, or null where it is nullable.
 */
function handlerArgs(
  spec: WebhookSpec,
  payload: unknown,
  event: string | null,
  delivery: string | null,
): Record<string, unknown> {
  const values = { payload, event, delivery };
  const args: Record<string, unknown> = Object.create(null);
  for (const name of spec.params) {
    if (values[name] !== null) args[name] = values[name];
  }
  return args;
}
