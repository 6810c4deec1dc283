import { describe, test, expect, beforeAll, afterAll } from "../../support/jest.js";
import { createServer, type Server, type ServerResponse } from "node:http";
import { request } from "undici";
import { sendData, sendError, sendOk } from "../../../runtime/core/answer/envelope.js";
import { Fail, HttpError } from "../../../runtime/core/errors.js";
import { listen, memoryLogger, stop } from "./helpers.js";

const memory = memoryLogger("info");
/** Each test sets what the server answers with. */
let answer: (res: ServerResponse) => void = () => undefined;
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_req, res) => answer(res));
  url = await listen(server);
});

afterAll(async () => {
  await stop(server);
});

async function fetchWith(
  fn: (res: ServerResponse) => void,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  answer = fn;
  const res = await request(url);
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

describe("success envelope", () => {
  test("data is wrapped, with JSON content type and exact length", async () => {
    const res = await fetchWith((r) => sendOk(r, { title: "été", n: 1 }));
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"ok":true,"data":{"title":"été","n":1}}');
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(res.text));
  });

  test("the body's bytes are its UTF-8 whether it is ASCII (written as latin1) or not", async () => {
    // ÿ (U+00FF) is one byte in latin1 and two in UTF-8: sent as latin1 it would arrive wrong.
    for (const title of ["plain ascii", "ÿ", "été", "🙂 日本語", "\u0000 and \u007f"]) {
      answer = (r) => sendOk(r, { title });
      const res = await request(url);
      const bytes = Buffer.from(await res.body.arrayBuffer());
      const expected = Buffer.from(JSON.stringify({ ok: true, data: { title } }), "utf8");
      expect(bytes.equals(expected)).toBe(true);
      expect(Number(res.headers["content-length"])).toBe(expected.length);
    }
  });

  test("undefined data is null", async () => {
    expect((await fetchWith((r) => sendOk(r, undefined))).text).toBe('{"ok":true,"data":null}');
  });

  test("pre-serialized data is sent as is", async () => {
    expect((await fetchWith((r) => sendData(r, '[{"id":"1"}]'))).text).toBe('{"ok":true,"data":[{"id":"1"}]}');
  });
});

describe("error envelope", () => {
  test("an HttpError keeps its status, message and headers", async () => {
    const res = await fetchWith((r) =>
      sendError(r, new HttpError(405, "method not allowed", { headers: { Allow: "POST" } }), memory.log),
    );
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
    expect(JSON.parse(res.text)).toEqual({ ok: false, error: "method not allowed" });
  });

  test("a Fail is an HttpError: its status and message reach the caller", async () => {
    const res = await fetchWith((r) => sendError(r, new Fail(404, "task not found"), memory.log));
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({ ok: false, error: "task not found" });
  });

  test("anything else is a 500 that hides its details, which go to the log", async () => {
    const secret = new Error("SQLITE_CORRUPT at /var/lib/secret.db");
    const res = await fetchWith((r) => sendError(r, secret, memory.log, { request_id: "r1" }));
    expect(res.status).toBe(500);
    expect(res.text).toBe('{"ok":false,"error":"internal error"}');
    expect(res.text).not.toContain("SQLITE");
    const logged = memory.lines().find((l) => l.request_id === "r1");
    expect(logged).toMatchObject({ level: "error", msg: "internal error" });
    expect(String(logged?.error)).toContain("SQLITE_CORRUPT");
    expect(String(logged?.error)).toContain("envelope.test");
  });

  test("a thrown non-Error is a 500 too", async () => {
    const res = await fetchWith((r) => sendError(r, "a string", memory.log));
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text)).toEqual({ ok: false, error: "internal error" });
  });
});
