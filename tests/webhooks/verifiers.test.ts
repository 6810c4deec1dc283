// One behaviour suite run over every provider (the way Hono runs one router suite over each
// router): deliveries signed by the provider's own library where one exists
// (@octokit/webhooks-methods, stripe, standardwebhooks) and by hand for Slack and hmac,
// checked with a fake clock. A verifier either returns or throws Rejected: a broken
// header must never surface as any other error (that would be a 500).

import { describe, expect, test } from "../support/jest.js";
import { sign as octokitSign } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import type { WebhookProvider } from "../../runtime/contract/index.js";
import { VERIFIERS } from "../../runtime/webhooks/providers.js";
import { Rejected, TOLERANCE_SECONDS } from "../../runtime/webhooks/verifier.js";
import { SECRETS, hmacHeaders, slackHeaders } from "./support.js";

type Headers = Record<string, string>;

interface ProviderCase {
  provider: WebhookProvider;
  /** Headers that sign `body` at `at` (Unix seconds). */
  sign(body: string, at: number): Promise<Headers>;
  /** The headers carrying the signature itself, which the malformed-header cases break. */
  signatureHeader: string;
  timestamped: boolean;
}

const AT = 1_750_000_000;

const cases: ProviderCase[] = [
  {
    provider: "github",
    sign: async (body) => ({ "x-hub-signature-256": await octokitSign(SECRETS.github, body) }),
    signatureHeader: "x-hub-signature-256",
    timestamped: false,
  },
  {
    provider: "stripe",
    sign: async (body, at) => ({
      "stripe-signature": Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: SECRETS.stripe,
        timestamp: at,
      }),
    }),
    signatureHeader: "stripe-signature",
    timestamped: true,
  },
  {
    provider: "slack",
    sign: async (body, at) => slackHeaders(body, at),
    signatureHeader: "x-slack-signature",
    timestamped: true,
  },
  {
    provider: "standard",
    sign: async (body, at) => ({
      "webhook-id": "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
      "webhook-timestamp": String(at),
      "webhook-signature": new Webhook(SECRETS.standard).sign(
        "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
        new Date(at * 1000),
        body,
      ),
    }),
    signatureHeader: "webhook-signature",
    timestamped: true,
  },
  {
    provider: "hmac",
    sign: async (body) => hmacHeaders(body),
    signatureHeader: "x-signature",
    timestamped: false,
  },
];

const BODY = '{"id": "evt_1", "type": "ping", "nested": {"list": [1, 2, 3], "text": "h\\u00e9"}}';

function verifier(c: ProviderCase) {
  const v = VERIFIERS[c.provider];
  const key = v.key(SECRETS[c.provider]);
  return (headers: Headers, body: string | Buffer, now: number) =>
    v.verify(headers, typeof body === "string" ? Buffer.from(body) : body, key, now);
}

/** The result of running `f`: "ok", "rejected", or the unexpected error. */
function outcome(f: () => void): "ok" | "rejected" | unknown {
  try {
    f();
    return "ok";
  } catch (err) {
    return err instanceof Rejected ? "rejected" : err;
  }
}

describe.each(cases)("$provider", (c) => {
  const verify = verifier(c);

  test("a delivery signed by the provider's library (or its documented recipe) verifies", async () => {
    const headers = await c.sign(BODY, AT);
    expect(outcome(() => verify(headers, BODY, AT))).toBe("ok");
  });

  test("one byte changed in the body is rejected", async () => {
    const headers = await c.sign(BODY, AT);
    const tampered = Buffer.from(BODY);
    tampered[10] ^= 0x01;
    expect(outcome(() => verify(headers, tampered, AT))).toBe("rejected");
  });

  test("the same JSON serialised again (same value, other bytes) is rejected", async () => {
    const headers = await c.sign(BODY, AT);
    const reserialised = JSON.stringify(JSON.parse(BODY));
    expect(JSON.parse(reserialised)).toEqual(JSON.parse(BODY));
    expect(outcome(() => verify(headers, reserialised, AT))).toBe("rejected");
  });

  test("a signature made with another secret is rejected", async () => {
    const other = VERIFIERS[c.provider];
    const headers = await c.sign(BODY, AT);
    const wrongKey =
      c.provider === "standard"
        ? other.key("whsec_" + Buffer.from("another key").toString("base64"))
        : other.key("another secret");
    expect(outcome(() => other.verify(headers, Buffer.from(BODY), wrongKey, AT))).toBe("rejected");
  });

  test("missing, empty, truncated, lengthened and non-hex signature headers are rejected, never thrown otherwise", async () => {
    const headers = await c.sign(BODY, AT);
    const value = headers[c.signatureHeader];
    const { [c.signatureHeader]: _removed, ...without } = headers;
    const broken: Headers[] = [
      without,
      { ...headers, [c.signatureHeader]: "" },
      { ...headers, [c.signatureHeader]: value.slice(0, -2) },
      { ...headers, [c.signatureHeader]: value.slice(0, -1) },
      { ...headers, [c.signatureHeader]: `${value}00` },
      { ...headers, [c.signatureHeader]: value.slice(0, -1) + "g" },
      { ...headers, [c.signatureHeader]: value.slice(0, -1) + "!" },
      { ...headers, [c.signatureHeader]: value.replace(/[0-9a-f]/g, "Z") },
      { ...headers, [c.signatureHeader]: "=" },
      { ...headers, [c.signatureHeader]: "\u00ff\u00fe" },
      {},
    ];
    for (const h of broken) expect(outcome(() => verify(h, BODY, AT))).toBe("rejected");
  });

  test("any headers at all give ok or Rejected, never another error", () => {
    const junk = [
      "",
      " ",
      ",",
      "t=",
      "v1=",
      "sha256=",
      "v0=",
      "v1,",
      "t=1,v1=zz",
      "v1,%%%",
      "x".repeat(5000),
      "t=99999999999999999999",
    ];
    const names = [
      "x-hub-signature-256",
      "stripe-signature",
      "x-slack-signature",
      "x-slack-request-timestamp",
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
      "x-signature",
    ];
    for (const j of junk) {
      const headers = Object.fromEntries(names.map((n) => [n, j]));
      expect(outcome(() => verify(headers, BODY, AT))).toBe("rejected");
    }
  });

  if (c.timestamped) {
    test.each([
      [TOLERANCE_SECONDS + 1, "rejected"],
      [-(TOLERANCE_SECONDS + 1), "rejected"],
      [TOLERANCE_SECONDS - 1, "ok"],
      [-(TOLERANCE_SECONDS - 1), "ok"],
      [TOLERANCE_SECONDS, "ok"],
      [-TOLERANCE_SECONDS, "ok"],
      [86_400, "rejected"],
    ])("signed %i s away from the server's clock: %s", async (skew, expected) => {
      const headers = await c.sign(BODY, AT);
      expect(outcome(() => verify(headers, BODY, AT + skew))).toBe(expected);
    });

    test("a timestamp that is not a Unix time in seconds is rejected", async () => {
      for (const at of [-5]) {
        const headers = await c.sign(BODY, at);
        expect(outcome(() => verify(headers, BODY, at))).toBe("rejected");
      }
    });
  } else {
    test("no timestamp is signed: the server's clock does not matter", async () => {
      const headers = await c.sign(BODY, AT);
      expect(outcome(() => verify(headers, BODY, AT + 10 * 365 * 86_400))).toBe("ok");
    });
  }
});

describe("provider specifics", () => {
  test("stripe: any matching v1 among several is enough; v0 alone is not", () => {
    const stripe = verifier(cases[1]);
    const good = Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRETS.stripe, timestamp: AT });
    const v1 = good.split(",").find((p) => p.startsWith("v1="))!;
    const wrong = `v1=${"0".repeat(64)}`;
    expect(outcome(() => stripe({ "stripe-signature": `t=${AT},${wrong},${v1}` }, BODY, AT))).toBe("ok");
    expect(outcome(() => stripe({ "stripe-signature": `t=${AT},${v1.replace("v1=", "v0=")}` }, BODY, AT))).toBe(
      "rejected",
    );
    expect(outcome(() => stripe({ "stripe-signature": v1 }, BODY, AT))).toBe("rejected");
    expect(outcome(() => stripe({ "stripe-signature": `t=${AT},t=${AT},${v1}` }, BODY, AT))).toBe("rejected");
  });

  test("stripe: a secret rotated by Stripe (two v1, one per secret) verifies with either", () => {
    const stripe = verifier(cases[1]);
    const mine = Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRETS.stripe, timestamp: AT });
    const theirs = Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: "whsec_other", timestamp: AT });
    const header = `t=${AT},${theirs.split(",")[1]},${mine.split(",")[1]}`;
    expect(outcome(() => stripe({ "stripe-signature": header }, BODY, AT))).toBe("ok");
  });

  test("standard: several signatures, versions it does not know ignored", () => {
    const standard = verifier(cases[3]);
    const id = "msg_1";
    const good = new Webhook(SECRETS.standard).sign(id, new Date(AT * 1000), BODY);
    const headers = (signature: string) => ({
      "webhook-id": id,
      "webhook-timestamp": String(AT),
      "webhook-signature": signature,
    });
    expect(outcome(() => standard(headers(`v1a,${"A".repeat(86)}== v1,${"A".repeat(43)}= ${good}`), BODY, AT))).toBe(
      "ok",
    );
    expect(outcome(() => standard(headers(`v2,${good.slice(3)}`), BODY, AT))).toBe("rejected");
    expect(outcome(() => standard({ "webhook-timestamp": String(AT), "webhook-signature": good }, BODY, AT))).toBe(
      "rejected",
    );
  });

  test("standard: a secret that is not whsec_ + base64 cannot be a key", () => {
    for (const bad of ["whsec_", "whsec_not base64!", "whsec_abc", ""]) {
      expect(() => VERIFIERS.standard.key(bad)).toThrow(/whsec_ followed by the key in base64/);
    }
  });

  test("the official libraries agree with svc on what they signed", async () => {
    const headers = await cases[3].sign(BODY, Math.floor(Date.now() / 1000));
    expect(new Webhook(SECRETS.standard).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  test("hmac: a sha256= prefix is accepted, and upper-case hex", () => {
    const hmac = verifier(cases[4]);
    const hex = hmacHeaders(BODY)["x-signature"];
    expect(outcome(() => hmac({ "x-signature": `sha256=${hex}` }, BODY, AT))).toBe("ok");
    expect(outcome(() => hmac({ "x-signature": hex.toUpperCase() }, BODY, AT))).toBe("ok");
  });

  test("slack: the signature covers the timestamp", () => {
    const slack = verifier(cases[2]);
    const headers = slackHeaders(BODY, AT);
    expect(outcome(() => slack({ ...headers, "x-slack-request-timestamp": String(AT + 1) }, BODY, AT))).toBe(
      "rejected",
    );
  });
});

describe("event and delivery", () => {
  test("github: from X-GitHub-Event and X-GitHub-Delivery", () => {
    expect(VERIFIERS.github.describe({ "x-github-event": "issues", "x-github-delivery": "d-1" }, {})).toEqual({
      event: "issues",
      delivery: "d-1",
    });
    expect(VERIFIERS.github.describe({}, {})).toEqual({ event: null, delivery: null });
  });

  test("stripe: the event's type and id", () => {
    expect(VERIFIERS.stripe.describe({}, { id: "evt_9", type: "invoice.paid" })).toEqual({
      event: "invoice.paid",
      delivery: "evt_9",
    });
    expect(VERIFIERS.stripe.describe({}, "not an object")).toEqual({ event: null, delivery: null });
  });

  test("slack: event callbacks, other payloads, slash commands", () => {
    const callback = { type: "event_callback", event_id: "Ev1", event: { type: "app_mention" } };
    expect(VERIFIERS.slack.describe({}, callback)).toEqual({ event: "app_mention", delivery: "Ev1" });
    expect(VERIFIERS.slack.describe({}, { type: "block_actions" })).toEqual({ event: "block_actions", delivery: null });
    expect(VERIFIERS.slack.describe({}, { command: "/deploy", text: "now" })).toEqual({
      event: "/deploy",
      delivery: null,
    });
  });

  test("standard: webhook-id (or svix-id) and the payload's type", () => {
    expect(VERIFIERS.standard.describe({ "webhook-id": "msg_1" }, { type: "user.created" })).toEqual({
      event: "user.created",
      delivery: "msg_1",
    });
    expect(VERIFIERS.standard.describe({ "svix-id": "msg_2" }, {})).toEqual({ event: null, delivery: "msg_2" });
  });

  test("hmac: X-Event-Type and X-Delivery-Id when the sender has them", () => {
    expect(VERIFIERS.hmac.describe({ "x-event-type": "order.shipped", "x-delivery-id": "42" }, {})).toEqual({
      event: "order.shipped",
      delivery: "42",
    });
    expect(VERIFIERS.hmac.describe({}, { type: "ignored" })).toEqual({ event: null, delivery: null });
  });
});
