// Published test vectors: the examples in the providers' own documentation must verify,
// and the smallest change to them must not.

import { describe, expect, test } from "../support/jest.js";
import { github } from "../../runtime/webhooks/github.js";
import { standard } from "../../runtime/webhooks/standard.js";
import { Rejected } from "../../runtime/webhooks/verifier.js";

describe("GitHub's documentation vector (docs.github.com, Validating webhook deliveries)", () => {
  const secret = "It's a Secret to Everybody";
  const body = Buffer.from("Hello, World!");
  const signature = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
  const key = github.key(secret);

  test("verifies", () => {
    expect(() => github.verify({ "x-hub-signature-256": signature }, body, key, 0)).not.toThrow();
  });

  test("a different body, secret or signature does not", () => {
    expect(() => github.verify({ "x-hub-signature-256": signature }, Buffer.from("Hello, World?"), key, 0)).toThrow(
      Rejected,
    );
    expect(() => github.verify({ "x-hub-signature-256": signature }, body, github.key(`${secret}!`), 0)).toThrow(
      Rejected,
    );
    const flipped = signature.slice(0, -1) + (signature.endsWith("7") ? "8" : "7");
    expect(() => github.verify({ "x-hub-signature-256": flipped }, body, key, 0)).toThrow(Rejected);
  });
});

describe("Svix's documentation vector (Standard Webhooks, docs.svix.com, Verifying payloads manually)", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  const timestamp = 1614265330;
  const body = Buffer.from('{"test": 2432232314}');
  const signature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
  const key = standard.key(secret);
  const headers = { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature };

  test("verifies at its own time", () => {
    expect(() => standard.verify(headers, body, key, timestamp)).not.toThrow();
  });

  test("verifies with Svix's header names too", () => {
    const svix = { "svix-id": id, "svix-timestamp": String(timestamp), "svix-signature": signature };
    expect(() => standard.verify(svix, body, key, timestamp)).not.toThrow();
  });

  test("a different id, timestamp or body does not", () => {
    expect(() => standard.verify({ ...headers, "webhook-id": `${id}x` }, body, key, timestamp)).toThrow(Rejected);
    expect(() =>
      standard.verify({ ...headers, "webhook-timestamp": String(timestamp + 1) }, body, key, timestamp),
    ).toThrow(Rejected);
    expect(() => standard.verify(headers, Buffer.from('{"test":2432232314}'), key, timestamp)).toThrow(Rejected);
  });

  test("the key is the base64 after whsec_, with or without the prefix", () => {
    expect(standard.key(secret)).toEqual(Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64"));
    expect(standard.key("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).toEqual(standard.key(secret));
  });
});
