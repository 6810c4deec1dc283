// The statements svc runs for a request before and after its endpoint's work, traced
// (docs/operations.md, Traces), on the accounts example: a session's lookup is a span below the
// request's span, in the caller's trace, and the sign-in throttle's counts are spans below the
// sign-in's. An OTLP/HTTP receiver (otlp.ts) decodes what the server exports.

import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { CHEAP_PASSWORDS } from "../support/server.js";
import { type Accounts, post, startAccounts } from "../auth/support.js";
import { type OtlpSpan, Receiver } from "./otlp.js";

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const PARENT_ID = "b7ad6b7169203331";

let accounts: Accounts;
let receiver: Receiver;

beforeAll(async () => {
  receiver = new Receiver();
  const port = await receiver.start();
  accounts = await startAccounts({
    ...CHEAP_PASSWORDS,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_TRACES_SAMPLER: "always_on",
    OTEL_BSP_SCHEDULE_DELAY: "20",
  });
  expect((await post(accounts.server, "/api/users", { email: "kim@example.com", name: "Kim", password: "sesame-open" })).status).toBe(200);
});

afterAll(async () => {
  await accounts?.stop();
  receiver?.server.close();
});

const children = (parent: OtlpSpan) => receiver.spans.filter((s) => s.traceId === parent.traceId && s.parentSpanId === parent.spanId).map((s) => s.name);

test("a session's lookup is a statement span below the request's, in the caller's trace; a sign-in's throttle counts are below the sign-in's", async () => {
  const signIn = await call(`${accounts.server.url}/session`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "email=kim%40example.com&password=sesame-open",
  });
  expect(signIn.status).toBe(303);
  const session = /svc_session=([^;]*)/.exec(String(signIn.headers["set-cookie"]))![1];

  const me = await post(accounts.server, "/api/accounts:me", {}, { cookie: `svc_session=${session}`, traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` });
  expect(me.status).toBe(200);
  await receiver.until(() => receiver.spans.some((s) => s.traceId === TRACE_ID && s.name === "svc_sessions.get"));
  const request = receiver.spans.find((s) => s.traceId === TRACE_ID && s.parentSpanId === PARENT_ID)!;
  expect(request.name).toBe("POST /api/accounts:me");
  expect(children(request)).toContain("svc_sessions.get");

  // The sign-in's own trace: the password check's counts (a success forgets the address's and
  // account's failures) are children of the request's span.
  await receiver.until(() => receiver.spans.some((s) => s.name === "POST /session"));
  const signInSpan = receiver.spans.find((s) => s.name === "POST /session")!;
  await receiver.until(() => children(signInSpan).some((name) => name.startsWith("svc_rate_limits.")));
  expect(children(signInSpan).filter((name) => name.startsWith("svc_rate_limits.")).length).toBeGreaterThan(0);
});
