// The webhook endpoint in-process, on a real SQLite database and a fake clock: verification
// before parsing, the handler's arguments, and exactly-once through the deliveries table
// the compiler declares (compiler/analyze/stores/webhook-store.ts).

import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { afterEach, beforeEach, describe, expect, test } from "../support/jest.js";
import { allTableDdl } from "../../compiler/analyze/sql/ddl/index.js";
import { Credentials } from "../../runtime/core/credentials.js";
import { type SqliteDatabase, openSqlite } from "../../runtime/db/sqlite/index.js";
import { Fail, HttpError, StartupError } from "../../runtime/core/errors.js";
import { Logger } from "../../runtime/core/log.js";
import type {
  CallInput,
  EndpointSpec,
  Executor,
  StatementSpec,
  TableSpec,
  WebhookParam,
  WebhookSpec,
} from "../../runtime/contract/index.js";
import { WebhookReply, webhookEndpoints } from "../../runtime/webhooks/index.js";
import { deliveriesTable, recordDeliverySql } from "../../runtime/webhooks/table.js";
import { SECRETS, hmacHeaders, slackHeaders } from "./support.js";

const effectsTable: TableSpec = {
  name: "effects",
  ddl: allTableDdl({
    module: "t",
    name: "effects",
    doc: null,
    primaryKey: ["id"],
    fields: [
      { name: "id", type: "id", enumValues: [], nullable: false, default: null, doc: null },
      { name: "note", type: "text", enumValues: [], nullable: true, default: null, doc: null },
    ],
    indexes: [],
  }),
};
const insertEffect: StatementSpec = {
  name: "effects.insert",
  sql: { sqlite: { text: "INSERT INTO effects (id, note) VALUES (?, ?)", slots: [0, 1] } },
};
const countEffects: StatementSpec = {
  name: "effects.count",
  sql: { sqlite: { text: "SELECT count(*) AS n FROM effects", slots: [] } },
};
const countDeliveries: StatementSpec = {
  name: "deliveries.count",
  sql: { sqlite: { text: `SELECT count(*) AS n FROM ${deliveriesTable.name}`, slots: [] } },
};

const NOW = 1_760_000_000;
let db: SqliteDatabase;
let calls: Record<string, unknown>[];
let nextId = 0;

beforeEach(async () => {
  db = openSqlite(":memory:");
  await db.migrate([deliveriesTable, effectsTable]);
  db.prepare([recordDeliverySql, insertEffect, countEffects, countDeliveries]);
  calls = [];
});

afterEach(async () => {
  await db.close();
});

/** A handler that writes one row, then fails when the payload says so (so the write must roll back). */
async function handler(tx: Executor, input: CallInput): Promise<unknown> {
  calls.push({ ...input.args });
  await tx.run(insertEffect, [`e${nextId++}`, JSON.stringify(input.args.payload)]);
  const payload = input.args.payload as { fail?: boolean } | undefined;
  if (payload?.fail === true) throw new Fail(409, "failed on purpose");
  return { handled: input.args.delivery ?? null };
}

function hook(
  provider: WebhookSpec["provider"],
  params: WebhookParam[] = ["payload", "event", "delivery"],
  name = `t.${provider}`,
): WebhookSpec {
  return {
    name,
    provider,
    credential: `${provider}_secret`,
    path: `/hooks/${provider}`,
    params,
    handler,
  };
}

function endpointFor(spec: WebhookSpec, clock: () => number = () => NOW): EndpointSpec {
  const credentials = new Credentials(new Map([[spec.credential, SECRETS[spec.provider]]]));
  const endpoints = webhookEndpoints([spec], credentials, new Logger("error", () => undefined), null, clock);
  expect([...endpoints.keys()]).toEqual([spec.name]);
  const endpoint = endpoints.get(spec.name)!;
  expect(endpoint.rawBody).toBe(true);
  return endpoint;
}

async function deliver(endpoint: EndpointSpec, headers: IncomingHttpHeaders, body: string): Promise<unknown> {
  const req = { headers: { "content-type": "application/json", ...headers } } as IncomingMessage;
  return endpoint.run(
    db,
    { args: Object.create(null), text: false, raw: Buffer.from(body) },
    { req, requestId: "test" },
  );
}

async function count(stmt: StatementSpec): Promise<number> {
  return Number((await db.one(stmt, []))!.n);
}

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    if (err instanceof HttpError) return err.status;
    throw err;
  }
}

describe("a webhook endpoint", () => {
  test("runs the handler with payload, event and delivery, once per delivery id", async () => {
    const endpoint = endpointFor(hook("hmac"));
    const body = '{"order":7}';
    const headers = { ...hmacHeaders(body), "x-event-type": "order.paid", "x-delivery-id": "d-1" };
    expect(await deliver(endpoint, headers, body)).toEqual({ handled: "d-1" });
    expect(await deliver(endpoint, headers, body)).toBeNull();
    expect(calls).toEqual([{ payload: { order: 7 }, event: "order.paid", delivery: "d-1" }]);
    expect(await count(countEffects)).toBe(1);
    expect(await count(countDeliveries)).toBe(1);
  });

  test("passes only the parameters the handler declares, and leaves out nulls so defaults apply", async () => {
    const endpoint = endpointFor(hook("hmac", ["payload", "event"]));
    const body = "[1]";
    await deliver(endpoint, { ...hmacHeaders(body), "x-delivery-id": "d-2" }, body);
    expect(calls).toEqual([{ payload: [1] }]);
  });

  test("a handler that fails records nothing, so the retry runs it again", async () => {
    const endpoint = endpointFor(hook("hmac"));
    const failing = '{"fail":true}';
    const headers = { ...hmacHeaders(failing), "x-delivery-id": "d-3" };
    expect(await status(deliver(endpoint, headers, failing))).toBe(409);
    expect(await status(deliver(endpoint, headers, failing))).toBe(409);
    expect(await count(countEffects)).toBe(0);
    expect(await count(countDeliveries)).toBe(0);
    const fixed = '{"fail":false}';
    expect(await status(deliver(endpoint, { ...hmacHeaders(fixed), "x-delivery-id": "d-3" }, fixed))).toBe(200);
    expect(await count(countEffects)).toBe(1);
    expect(calls).toHaveLength(3);
  });

  test("the same delivery twice at once runs the handler once", async () => {
    const endpoint = endpointFor(hook("hmac"));
    const body = '{"n":1}';
    const headers = { ...hmacHeaders(body), "x-delivery-id": "d-4" };
    const results = await Promise.all(Array.from({ length: 8 }, () => deliver(endpoint, headers, body)));
    expect(results.filter((r) => r !== null)).toEqual([{ handled: "d-4" }]);
    expect(calls).toHaveLength(1);
    expect(await count(countEffects)).toBe(1);
  });

  test("deliveries without an id run every time; two webhooks' ids do not collide", async () => {
    const plain = endpointFor(hook("hmac"));
    const body = "{}";
    await deliver(plain, hmacHeaders(body), body);
    await deliver(plain, hmacHeaders(body), body);
    expect(calls).toHaveLength(2);
    const other = endpointFor(hook("hmac", ["payload", "event", "delivery"], "t.other"));
    await deliver(plain, { ...hmacHeaders(body), "x-delivery-id": "same" }, body);
    await deliver(other, { ...hmacHeaders(body), "x-delivery-id": "same" }, body);
    expect(calls).toHaveLength(4);
  });

  test("a bad signature is a 401 and nothing runs", async () => {
    const endpoint = endpointFor(hook("hmac"));
    expect(await status(deliver(endpoint, hmacHeaders('{"a":1}'), '{"a":2}'))).toBe(401);
    expect(await status(deliver(endpoint, {}, "{}"))).toBe(401);
    expect(calls).toHaveLength(0);
  });

  test.each([
    [301, 401],
    [-301, 401],
    [299, 200],
    [-299, 200],
  ])("with a fake clock, a delivery signed %i s away is answered %i", async (skew, expected) => {
    const endpoint = endpointFor(hook("slack"), () => NOW + skew + 0.9);
    const body = '{"type":"event_callback","event_id":"Ev1","event":{"type":"message"}}';
    expect(await status(deliver(endpoint, slackHeaders(body, NOW), body))).toBe(expected);
    expect(calls).toHaveLength(expected === 200 ? 1 : 0);
  });

  test("Slack's url_verification is answered with its challenge, without running the handler", async () => {
    const endpoint = endpointFor(hook("slack"));
    const body =
      '{"token":"t","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}';
    const reply = await deliver(endpoint, slackHeaders(body, NOW), body);
    expect(reply).toBeInstanceOf(WebhookReply);
    expect(JSON.parse((reply as WebhookReply).body)).toEqual({
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
    expect(calls).toHaveLength(0);
    const forged = await status(deliver(endpoint, slackHeaders(body, NOW, "not the secret"), body));
    expect(forged).toBe(401);
  });

  test("a secret its provider cannot use stops the start, naming the credential and the webhook but not the value", () => {
    const spec = hook("standard");
    const credentials = new Credentials(new Map([[spec.credential, "whsec_***not-base64***"]]));
    const start = () => webhookEndpoints([spec], credentials, new Logger("error", () => undefined));
    expect(start).toThrow(StartupError);
    expect(start).toThrow(
      'credential "standard_secret", the secret of webhook t.standard: it is not a Standard Webhooks secret',
    );
    expect(start).not.toThrow(/not-base64/);
  });
});
