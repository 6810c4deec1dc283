// sendWhole, the one writer of whole answers (core/answer/answer.ts): its head and body, the
// lengths of answers without a body, headers given either way, and a second answer refused.
import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import { createServer, type Server } from "node:http";
import { request } from "undici";
import { Answer, sendWhole } from "../../../runtime/core/answer/index.js";
import { listen, stop } from "./helpers.js";

let server: Server;
let url: string;
let twice: { threw: unknown; destroyed: boolean } | null = null;

const WRITERS: Record<string, (res: Answer) => void> = {
  "/text": (res) => sendWhole(res, 200, { type: "text/plain; charset=utf-8", content: "héllo" }, { "X-One": "1" }),
  "/bytes": (res) => sendWhole(res, 201, { type: "application/octet-stream", content: Buffer.from([0, 1, 2, 255]) }),
  "/pairs": (res) => sendWhole(res, 200, { type: "text/plain", content: "p" }, [["X-Kept", "yes"], ["X-Left-Out", null]]),
  "/no-content": (res) => sendWhole(res, 204, null, { Allow: "GET, HEAD, OPTIONS" }),
  "/see-other": (res) => sendWhole(res, 303, null, { Location: "/next" }),
  "/twice": (res) => {
    sendWhole(res, 200, { type: "text/plain", content: "first" });
    // The head is out: a second answer cannot be told apart, so the connection is cut instead.
    let threw: unknown = null;
    try {
      sendWhole(res, 500, { type: "text/plain", content: "second" }, { "X-Late": "1" });
    } catch (err) {
      threw = err;
    }
    twice = { threw, destroyed: res.destroyed };
  },
};

beforeAll(async () => {
  server = createServer({ ServerResponse: Answer }, (req, res) => {
    res.requestId = "id-1";
    WRITERS[req.url ?? ""](res);
  });
  url = await listen(server);
});

afterAll(async () => {
  await stop(server);
});

describe("sendWhole", () => {
  test("a text body: its type, its UTF-8 length, the extra headers and the request id", async () => {
    const r = await request(url + "/text");
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(r.headers["content-length"]).toBe(String(Buffer.byteLength("héllo")));
    expect(r.headers["x-one"]).toBe("1");
    expect(r.headers["x-request-id"]).toBe("id-1");
    expect(await r.body.text()).toBe("héllo");
  });

  test("a body of bytes goes out as it is", async () => {
    const r = await request(url + "/bytes");
    expect(r.statusCode).toBe(201);
    expect(r.headers["content-length"]).toBe("4");
    expect([...Buffer.from(await r.body.arrayBuffer())]).toEqual([0, 1, 2, 255]);
  });

  test("headers as pairs: a null value leaves the header out", async () => {
    const r = await request(url + "/pairs");
    expect(r.headers["x-kept"]).toBe("yes");
    expect(r.headers["x-left-out"]).toBeUndefined();
    await r.body.text();
  });

  test("a 204 says no length (RFC 9110 §8.6); a 303 without a body says 0", async () => {
    const none = await request(url + "/no-content");
    expect(none.statusCode).toBe(204);
    expect(none.headers["content-length"]).toBeUndefined();
    expect(none.headers.allow).toBe("GET, HEAD, OPTIONS");
    await none.body.text();
    const see = await request(url + "/see-other");
    expect(see.statusCode).toBe(303);
    expect(see.headers["content-length"]).toBe("0");
    expect(see.headers.location).toBe("/next");
    await see.body.text();
  });

  test("a second answer after the head went out: no throw, no headers set, the connection cut", async () => {
    await request(url + "/twice").then((r) => r.body.text()).catch(() => undefined);
    expect(twice).toEqual({ threw: null, destroyed: true });
  });
});
