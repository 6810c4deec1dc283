// The outbox's pieces (runtime/outbox): signatures checked by the standardwebhooks library
// itself, and refused by it once anything signed is changed; the backoff's bounds; the
// statements' parameter slots in each dialect.

import { describe, expect, test } from "../../support/jest.js";
import { Webhook } from "standardwebhooks";
import { retryDelayMs, signedHeaders, signingKey, outboxStatements } from "../../../runtime/outbox/index.js";
import { deliveryId, wants } from "../../../runtime/outbox/claim.js";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const BODY = JSON.stringify({ type: "task_completed", timestamp: "2026-11-28T21:00:00.000Z", data: { id: "t1", title: "Ship" } });

function signed(secret: string, body = BODY, id = "msg_01JDV5Q0000000000000000000"): Record<string, string> {
  return signedHeaders(signingKey(secret), id, Math.floor(Date.now() / 1000), body);
}

describe("signing", () => {
  test("a whsec_ secret's signature verifies with standardwebhooks", () => {
    const headers = signed(SECRET);
    expect(new Webhook(SECRET).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  test("a raw secret signs with its own bytes, as the library's raw format", () => {
    const raw = "a plain shared secret";
    const headers = signed(raw);
    expect(new Webhook(raw, { format: "raw" }).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  test("a changed body, id or timestamp, or another secret, is refused by the library", () => {
    const headers = signed(SECRET);
    const wh = new Webhook(SECRET);
    expect(() => wh.verify(BODY.replace("Ship", "Sink"), headers)).toThrow();
    expect(() => wh.verify(BODY, { ...headers, "webhook-id": "msg_other" })).toThrow();
    expect(() => wh.verify(BODY, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 1) })).toThrow();
    expect(() => new Webhook("whsec_dGhlIG90aGVyIHNlY3JldCBlbnRpcmVseQ==").verify(BODY, headers)).toThrow();
  });

  test("a timestamp older than the library's tolerance is refused by it", () => {
    const old = signedHeaders(signingKey(SECRET), "msg_1", Math.floor(Date.now() / 1000) - 3600, BODY);
    expect(() => new Webhook(SECRET).verify(BODY, old)).toThrow();
  });

  test("a whsec_ secret that is not base64 is no key", () => {
    expect(() => signingKey("whsec_not base64!")).toThrow(/whsec_/);
  });
});

describe("backoff", () => {
  const policy = { firstMs: 1000, maxMs: 60_000 };

  test("doubles per failed attempt, between half and all of it", () => {
    expect(retryDelayMs(policy, 1, () => 0)).toBe(500);
    expect(retryDelayMs(policy, 1, () => 0.999999)).toBe(1000);
    expect(retryDelayMs(policy, 3, () => 0)).toBe(2000);
    expect(retryDelayMs(policy, 3, () => 0.999999)).toBe(4000);
  });

  test("is capped, however many attempts failed", () => {
    expect(retryDelayMs(policy, 10, () => 0.999999)).toBe(60_000);
    expect(retryDelayMs(policy, 500, () => 0.999999)).toBe(60_000);
  });
});

describe("deliveries", () => {
  test("one row id per event and subscriber", () => {
    expect(deliveryId("msg_1", "crm")).toMatch(/^[0-9a-f]{64}$/);
    expect(deliveryId("msg_1", "crm")).not.toBe(deliveryId("msg_1", "crm2"));
    expect(deliveryId("msg_1", "crm")).toBe(deliveryId("msg_1", "crm"));
  });

  test("a subscriber gets the events it names, or every event with *", () => {
    expect(wants({ name: "a", events: ["task_completed"] }, "task_completed")).toBe(true);
    expect(wants({ name: "a", events: ["task_completed"] }, "task_created")).toBe(false);
    expect(wants({ name: "a", events: ["*"] }, "anything")).toBe(true);
  });

  test("a placeholder written twice is two slots for ?, one numbered slot for postgres", () => {
    const due = outboxStatements.due.sql;
    expect(due.sqlite!.slots).toEqual([0, 0]);
    expect(due.mysql!.slots).toEqual([0, 0]);
    expect(due.postgres!.slots).toEqual([0]);
    expect(due.postgres!.text).toContain("$1");
    expect(outboxStatements.addDelivery.sql.mysql!.text).toMatch(/^INSERT IGNORE/);
    expect(outboxStatements.addDelivery.sql.postgres!.text).toContain("ON CONFLICT");
  });
});
