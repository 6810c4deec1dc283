// `emit` (docs/language.md §2.9): the one statement an emitting action adds to its
// transaction. The event's body is made here, once, and stored as the exact text that is
// signed and sent, so every retry sends the same bytes under the same webhook-id. The row
// carries the trace context of the emitting span, when traced.

import { newId } from "../lang/ids.js";
import { traceCarrier } from "../lang/trace-context.js";
import type { CallContext, Executor } from "../contract/index.js";
import { outboxStatements as sql } from "./table.js";

/** Stores event `type` with `data` on `tx`; the server wakes its delivery loop once the call commits. */
export async function emit(tx: Executor, ctx: CallContext, type: string, data: Record<string, unknown>, now = Date.now()): Promise<void> {
  const id = `msg_${newId()}`;
  const body = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
  // Inside a traced request or job run: its span, the parent of the deliveries' client spans.
  const trace = traceCarrier(tx);
  await tx.run(sql.enqueue, [id, type, body, now, trace?.traceparent ?? null, trace?.tracestate ?? null]);
  ctx.emitted = true;
}

/** After a call: wakes the delivery loop when the call emitted (it has committed by now). */
export function afterCall(ctx: CallContext): void {
  if (ctx.emitted === true) {
    ctx.emitted = undefined;
    ctx.outbox?.wake();
  }
}
