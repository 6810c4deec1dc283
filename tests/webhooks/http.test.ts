// Webhooks and bearer auth over real sockets, on a generated server: every provider signed
// by its own library (or its documented recipe), bad signatures, duplicates, handlers that
// fail, and the 401/403/200 answers of protected actions.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { sign as octokitSign } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { call } from "../support/http.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import {
  HOOKS_ENV,
  SECRETS,
  TOKENS,
  buildServer,
  hmacHeaders,
  nowSeconds,
  slackHeaders,
  startHooks,
  writeFileCredentials,
} from "./support.js";

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await buildServer();
  writeFileCredentials(dir);
  server = await startHooks(dir, join(dir, "hooks.db"), ["--max-body-size", "65536"]);
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

function post(path: string, body: string, headers: Record<string, string>) {
  return call(`${server.url}${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
}

async function received(source: string): Promise<any[]> {
  const r = await call(`${server.url}/api/hooks:list_received?source=${source}`);
  expect(r.status).toBe(200);
  return r.json.data;
}

describe("deliveries each provider signed", () => {
  test("github (@octokit/webhooks-methods): stored once with its event and delivery id", async () => {
    const body = JSON.stringify({ action: "opened", issue: { number: 1 } });
    const headers = {
      "x-hub-signature-256": await octokitSign(SECRETS.github, body),
      "x-github-event": "issues",
      "x-github-delivery": "gh-1",
    };
    const first = await post("/hooks/github", body, headers);
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({
      source: "github",
      event: "issues",
      delivery: "gh-1",
      payload: { action: "opened" },
    });
    const again = await post("/hooks/github", body, headers);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ ok: true, data: null });
    expect((await received("github")).filter((r) => r.delivery === "gh-1")).toHaveLength(1);
  });

  test("stripe (stripe.webhooks.generateTestHeaderString): the event's type and id", async () => {
    const body = JSON.stringify({
      id: "evt_1",
      object: "event",
      type: "invoice.paid",
      data: { object: { amount: 500 } },
    });
    const header = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: SECRETS.stripe,
      timestamp: nowSeconds(),
    });
    const r = await post("/hooks/stripe", body, { "stripe-signature": header });
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ source: "stripe", event: "invoice.paid", delivery: "evt_1" });
    expect((await post("/hooks/stripe", body, { "stripe-signature": header })).json.data).toBeNull();
  });

  test("standard (standardwebhooks): webhook-id is the delivery; the secret came from a file", async () => {
    const body = JSON.stringify({ type: "user.created", data: { id: "u1" } });
    const at = new Date();
    const headers = {
      "webhook-id": "msg_std_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(SECRETS.standard).sign("msg_std_1", at, body),
    };
    const r = await post("/hooks/standard", body, headers);
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ source: "standard", event: "user.created", delivery: "msg_std_1" });
  });

  test("slack (signed by hand, as its docs describe): an Events API callback, and a slash command form", async () => {
    const body = JSON.stringify({
      type: "event_callback",
      event_id: "Ev42",
      event: { type: "app_mention", text: "hi" },
    });
    const r = await post("/hooks/slack", body, slackHeaders(body, nowSeconds()));
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ event: "app_mention", delivery: "Ev42" });
    const form = "command=%2Ftask&text=write+docs&user_id=U1";
    const slash = await call(`${server.url}/hooks/slack`, {
      method: "POST",
      body: form,
      headers: { "content-type": "application/x-www-form-urlencoded", ...slackHeaders(form, nowSeconds()) },
    });
    expect(slash.status).toBe(200);
    expect(slash.json.data).toMatchObject({
      event: "/task",
      delivery: null,
      payload: { command: "/task", text: "write docs" },
    });
  });

  test("slack url_verification: the challenge comes back as Slack expects", async () => {
    const body = JSON.stringify({ token: "x", challenge: "c-123", type: "url_verification" });
    const r = await post("/hooks/slack", body, slackHeaders(body, nowSeconds()));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ challenge: "c-123" });
  });

  test("hmac (signed by hand): the secret came from SVC_CREDENTIAL_HMAC_SECRET", async () => {
    const body = '{"n":1}';
    const r = await post("/hooks/hmac", body, hmacHeaders(body));
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ source: "hmac", event: null, delivery: null, payload: { n: 1 } });
  });
});

describe("refused deliveries: 401, never 500, nothing stored", () => {
  test("a changed byte, re-serialised JSON, a wrong secret", async () => {
    const body = '{"action": "opened",  "n": 2}';
    const good = await octokitSign(SECRETS.github, body);
    const before = (await received("github")).length;
    const changed = body.replace("2", "3");
    const answers = await Promise.all([
      post("/hooks/github", changed, { "x-hub-signature-256": good }),
      post("/hooks/github", JSON.stringify(JSON.parse(body)), { "x-hub-signature-256": good }),
      post("/hooks/github", body, { "x-hub-signature-256": await octokitSign("wrong secret", body) }),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(a.json.ok).toBe(false);
      expect(a.json.error).toMatch(/^webhook signature rejected: /);
    }
    expect(await received("github")).toHaveLength(before);
  });

  test("missing, wrong-length and non-hex headers", async () => {
    const body = '{"n":3}';
    const hex = hmacHeaders(body)["x-signature"];
    const broken: Record<string, string>[] = [
      {},
      { "x-signature": hex.slice(2) },
      { "x-signature": `${hex}ab` },
      { "x-signature": `${hex.slice(1)}x` },
      { "x-signature": "" },
    ];
    for (const headers of broken) {
      const r = await post("/hooks/hmac", body, headers);
      expect(r.status).toBe(401);
    }
    const stripeBody = '{"id":"evt_x","type":"t"}';
    for (const header of [
      "",
      "t=",
      "v1=abc",
      `t=${nowSeconds()}`,
      `t=${nowSeconds()},v1=${"z".repeat(64)}`,
      "garbage,,,===",
    ]) {
      expect(
        (await post("/hooks/stripe", stripeBody, header === "" ? {} : { "stripe-signature": header })).status,
      ).toBe(401);
    }
  });

  test("stale and future timestamps, from the real clock", async () => {
    const body = JSON.stringify({ type: "event_callback", event_id: "EvOld", event: { type: "message" } });
    for (const skew of [-400, 400, -86_400]) {
      const r = await post("/hooks/slack", body, slackHeaders(body, nowSeconds() + skew));
      expect(r.status).toBe(401);
      expect(r.json.error).toMatch(skew < 0 ? /seconds old/ : /in the future/);
    }
    const stripeBody = JSON.stringify({ id: "evt_old", type: "x" });
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload: stripeBody,
      secret: SECRETS.stripe,
      timestamp: nowSeconds() - 3600,
    });
    expect((await post("/hooks/stripe", stripeBody, { "stripe-signature": stale })).status).toBe(401);
  });

  test("only POST: another method on a webhook path is a 405", async () => {
    const r = await call(`${server.url}/hooks/github`);
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe("POST");
  });

  test("a body over --max-body-size is a 413 before any verification", async () => {
    const big = JSON.stringify({ pad: "x".repeat(100_000) });
    const r = await post("/hooks/hmac", big, hmacHeaders(big));
    expect(r.status).toBe(413);
  });
});

describe("handlers", () => {
  test("are not endpoints of their own: /api/hooks:on_github is a 404", async () => {
    const r = await call(`${server.url}/api/hooks:on_github`, { json: { payload: { forged: true }, event: "issues" } });
    expect(r.status).toBe(404);
  });

  test("one that fails records nothing: the provider's retry runs it again", async () => {
    const failing = JSON.stringify({ id: "evt_retry", type: "charge.failed", fail: true });
    const header = () =>
      Stripe.webhooks.generateTestHeaderString({ payload: failing, secret: SECRETS.stripe, timestamp: nowSeconds() });
    const first = await post("/hooks/stripe", failing, { "stripe-signature": header() });
    expect(first.status).toBe(409);
    expect(first.json).toEqual({ ok: false, error: "the handler failed on purpose" });
    expect((await received("stripe")).filter((r) => r.delivery === "evt_retry")).toHaveLength(0);
    // The same event id, now handled: it runs (nothing was recorded), then is a duplicate.
    const fixed = JSON.stringify({ id: "evt_retry", type: "charge.failed", fail: false });
    const sign = () =>
      Stripe.webhooks.generateTestHeaderString({ payload: fixed, secret: SECRETS.stripe, timestamp: nowSeconds() });
    expect((await post("/hooks/stripe", fixed, { "stripe-signature": sign() })).json.data).toMatchObject({
      delivery: "evt_retry",
    });
    expect((await post("/hooks/stripe", fixed, { "stripe-signature": sign() })).json.data).toBeNull();
    expect((await received("stripe")).filter((r) => r.delivery === "evt_retry")).toHaveLength(1);
  });
});

describe("bearer auth", () => {
  const whoami = (authorization?: string) =>
    call(`${server.url}/api/hooks:whoami`, { json: {}, headers: authorization === undefined ? {} : { authorization } });
  const adminOnly = (authorization: string | undefined, json: unknown = { note: "n" }) =>
    call(`${server.url}/api/hooks:admin_only`, { json, headers: authorization === undefined ? {} : { authorization } });

  test("no token: 401 with WWW-Authenticate: Bearer", async () => {
    const r = await whoami();
    expect(r.status).toBe(401);
    expect(r.headers["www-authenticate"]).toBe("Bearer");
    expect(r.json.ok).toBe(false);
  });

  test("an unknown token, or another scheme (a credential sent and refused): 401 invalid_token", async () => {
    for (const header of [
      "Bearer not-a-token",
      `Bearer ${TOKENS.reader}x`,
      "Bearer",
      `Basic ${Buffer.from("a:b").toString("base64")}`,
    ]) {
      const r = await whoami(header);
      expect(r.status).toBe(401);
      expect(r.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
    }
  });

  test("any valid token for requires auth", async () => {
    for (const token of Object.values(TOKENS)) {
      const r = await whoami(`Bearer ${token}`);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ ok: true, data: "a valid token" });
    }
  });

  test("requires role: 403 without the role, 200 with it (a token may have several)", async () => {
    const reader = await adminOnly(`Bearer ${TOKENS.reader}`);
    expect(reader.status).toBe(403);
    expect(reader.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope"');
    expect(reader.json.error).toBe('this needs the role "admin"');
    expect((await adminOnly(`Bearer ${TOKENS.admin}`)).json).toEqual({ ok: true, data: "admin: n" });
    expect((await adminOnly(`bearer ${TOKENS.ops}`)).status).toBe(200);
  });

  test("the check comes before the arguments: 401, not 400, for a caller without a token", async () => {
    expect((await adminOnly(undefined, { wrong: 1 })).status).toBe(401);
    expect((await adminOnly(`Bearer ${TOKENS.admin}`, { wrong: 1 })).status).toBe(400);
  });

  test("unprotected endpoints need no token", async () => {
    expect((await call(`${server.url}/api/hooks:list_received?source=none`)).status).toBe(200);
  });
});

describe("a route file invoking a protected action (app/api/admin/route.svc)", () => {
  const admin = (authorization?: string) =>
    call(`${server.url}/api/admin`, {
      json: { note: "via route" },
      headers: authorization === undefined ? {} : { authorization },
    });

  test("answers as the action's own endpoint: 401, 403, 200", async () => {
    const none = await admin();
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe("Bearer");
    const unknown = await admin("Bearer nope");
    expect(unknown.status).toBe(401);
    expect(unknown.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
    const reader = await admin(`Bearer ${TOKENS.reader}`);
    expect(reader.status).toBe(403);
    expect(reader.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope"');
    const ok = await admin(`Bearer ${TOKENS.admin}`);
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ ok: true, data: { result: "admin: via route" } });
  });

  test("a form post gets the same 401/403, not a 422 re-render of the form", async () => {
    const form = (authorization?: string) =>
      call(`${server.url}/api/admin`, {
        body: "note=via+form",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(authorization === undefined ? {} : { authorization }),
        },
      });
    const none = await form();
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe("Bearer");
    const reader = await form(`Bearer ${TOKENS.reader}`);
    expect(reader.status).toBe(403);
    expect(reader.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope"');
  });
});

describe("start-up", () => {
  test("a missing credential stops the server, naming it and where it was looked for, not any value", async () => {
    const { TEST_GITHUB_SECRET: _gone, SVC_CREDENTIAL_HMAC_SECRET: _also, ...env } = HOOKS_ENV;
    const attempt = startServer(dir, ["--db", join(dir, "other.db"), "--workers", "1"], env);
    await expect(attempt).rejects.toThrow(/server exited with 1/);
    const error = await attempt.catch((err: Error) => err.message);
    expect(error).toContain("2 credentials are missing");
    expect(error).toContain(
      'credential "github_secret" is missing: the environment variable TEST_GITHUB_SECRET is not set',
    );
    expect(error).toContain(
      'credential "hmac_secret" is missing: the environment variable SVC_CREDENTIAL_HMAC_SECRET is not set',
    );
    expect(error).not.toContain(SECRETS.stripe);
    expect(error).not.toContain(SECRETS.slack);
  });

  test("an empty token list stops the server", async () => {
    const alt = await buildServer();
    writeFileCredentials(alt);
    writeFileSync(join(alt, "tokens.txt"), "# nobody yet\n");
    try {
      await expect(startServer(alt, ["--db", join(alt, "x.db"), "--workers", "1"], HOOKS_ENV)).rejects.toThrow(
        /credential "api_tokens" holds no bearer token/,
      );
    } finally {
      removeDir(alt);
    }
  });

  test("no log line holds a secret or a token", () => {
    const log = server.output.join("\n");
    for (const value of [...Object.values(SECRETS), ...Object.values(TOKENS)]) expect(log).not.toContain(value);
  });
});
