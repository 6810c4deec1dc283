import { describe, test, expect, beforeAll, afterAll } from "../../support/jest.js";
import { createServer, type Server } from "node:http";
import { request } from "undici";
import { readBody } from "../../../runtime/core/body.js";
import { sendError, sendJson } from "../../../runtime/core/answer/envelope.js";
import { MAX_JSON_DEPTH } from "../../../runtime/core/safe-json.js";
import { listen, memoryLogger, sendChunked, sendRaw, stop } from "./helpers.js";

const LIMIT = 4096;
let server: Server;
let url: string;
/** Bytes the handler had been given when it answered; shows reading stopped at the limit. */
let lastBytesRead = 0;

beforeAll(async () => {
  const { log } = memoryLogger("error");
  server = createServer((req, res) => {
    readBody(req, LIMIT).then(
      (input) => {
        lastBytesRead = req.socket.bytesRead;
        sendJson(
          res,
          200,
          JSON.stringify({ args: input.args, text: input.text, proto: !("toString" in input.args) }),
        );
      },
      (err: unknown) => {
        lastBytesRead = req.socket.bytesRead;
        sendError(res, err, log);
      },
    );
  });
  url = await listen(server);
});

afterAll(async () => {
  await stop(server);
});

async function post(
  body: string | Buffer,
  contentType?: string,
): Promise<{ status: number; json: Record<string, unknown>; headers: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers["content-type"] = contentType;
  const res = await request(url, { method: "POST", headers, body });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown>, headers: res.headers };
}

describe("JSON bodies", () => {
  test("an object becomes the arguments, not text", async () => {
    const res = await post(JSON.stringify({ title: "x", limit: 5, tags: ["a"] }), "application/json");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ args: { title: "x", limit: 5, tags: ["a"] }, text: false, proto: false });
  });

  test("a charset parameter is allowed when it is UTF-8", async () => {
    expect((await post('{"a":"é"}', "application/json; charset=UTF-8")).json.args).toEqual({ a: "é" });
    expect((await post('{"a":1}', 'Application/JSON;charset="utf-8"')).status).toBe(200);
    expect((await post('{"a":1}', "application/vnd.api+json")).status).toBe(200);
  });

  test("another charset is a 415", async () => {
    const res = await post('{"a":1}', "application/json; charset=latin1");
    expect(res.status).toBe(415);
    expect(res.json).toEqual({ ok: false, error: 'unsupported charset "latin1"; send UTF-8' });
  });

  test("malformed JSON is a 400", async () => {
    const res = await post('{"a":', "application/json");
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ ok: false, error: "malformed JSON body" });
  });

  test.each(['[{"a":1}]', "null", '"text"', "42"])("%s is not an object of arguments: 400", async (body) => {
    const res = await post(body, "application/json");
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("JSON body must be an object of arguments");
  });

  test.each(["__proto__", "constructor", "prototype"])("a %s key at any depth is a 400", async (key) => {
    const res = await post(`{"a":{"b":[{"${key}":{"polluted":true}}]}}`, "application/json");
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(`JSON body has a forbidden key "${key}"`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("nesting deeper than the limit is a 400", async () => {
    const deep = '{"a":' + "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH) + "}";
    const res = await post(deep, "application/json");
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(`JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  test("invalid UTF-8 is a 400", async () => {
    const res = await post(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), "application/json");
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("request body is not valid UTF-8");
  });
});

describe("form bodies", () => {
  test("urlencoded fields become text arguments", async () => {
    const res = await post("title=Buy+milk&assignee=&priority=high", "application/x-www-form-urlencoded");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ args: { title: "Buy milk", assignee: "", priority: "high" }, text: true, proto: true });
  });

  test("a repeated field is a 400 naming it", async () => {
    const res = await post("a=1&a=2", "application/x-www-form-urlencoded; charset=utf-8");
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('argument "a" given more than once in the form body');
  });
});

describe("empty bodies and content types", () => {
  test("an empty POST is no arguments, whatever its type", async () => {
    expect((await post("")).json).toEqual({ args: {}, text: false, proto: true });
    expect((await post("", "text/plain")).status).toBe(200);
    expect((await post("", "application/json")).json.args).toEqual({});
  });

  test.each([
    [
      "text/plain",
      'unsupported Content-Type "text/plain"; send application/json, application/x-www-form-urlencoded or multipart/form-data',
    ],
    [
      "application/xml; charset=utf-8",
      'unsupported Content-Type "application/xml"; send application/json, application/x-www-form-urlencoded or multipart/form-data',
    ],
  ])("a non-empty %s body is a 415", async (type, message) => {
    const res = await post("hello", type);
    expect(res.status).toBe(415);
    expect(res.json).toEqual({ ok: false, error: message });
  });

  test("a non-empty body without a Content-Type is a 415", async () => {
    const res = await request(url, { method: "POST", body: "hello", headers: { "content-type": "" } });
    expect(res.statusCode).toBe(415);
    await res.body.dump();
  });
});

describe("multipart/form-data bodies (docs/language.md §3: a form is urlencoded or multipart)", () => {
  const form = (fields: [string, string][], boundary = "----svcBoundary7"): Buffer =>
    Buffer.from(
      fields.map(([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join("") +
        `--${boundary}--\r\n`,
    );

  test("fields become text arguments, like a urlencoded form's", async () => {
    const res = await post(
      form([
        ["title", "héllo"],
        ["limit", "5"],
        ["note", "line one\r\nline two"],
      ]),
      "multipart/form-data; boundary=----svcBoundary7",
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      args: { title: "héllo", limit: "5", note: "line one\r\nline two" },
      text: true,
      proto: true,
    });
  });

  test("a field given twice and a missing boundary are 400s, a file part where no file is taken a 415, naming the problem", async () => {
    const type = "multipart/form-data; boundary=----svcBoundary7";
    const twice = await post(form([["a", "1"], ["a", "2"]]), type);
    expect(twice.status).toBe(400);
    expect(twice.json.error).toBe('argument "a" given more than once in the form body');
    const file = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="doc"; filename="x.txt"\r\n\r\nhi\r\n--b--\r\n',
    );
    const upload = await post(file, "multipart/form-data; boundary=b");
    expect(upload.status).toBe(415);
    expect(upload.json.error).toBe('argument "doc" is a file upload, and no file is taken there');
    const unbounded = await post(form([["a", "1"]]), "multipart/form-data");
    expect(unbounded.status).toBe(400);
    expect(unbounded.json.error).toBe("multipart form body has no boundary in its Content-Type");
  });

  test("an empty multipart body is no arguments, like any empty body", async () => {
    expect((await post("", "multipart/form-data; boundary=x")).json).toEqual({ args: {}, text: false, proto: true });
  });
});

describe("size limit", () => {
  test("a body exactly at the limit is read", async () => {
    const value = "x".repeat(LIMIT - '{"a":""}'.length);
    const res = await post(`{"a":"${value}"}`, "application/json");
    expect(res.status).toBe(200);
  });

  test("a declared Content-Length over the limit is a 413 before any body is sent", async () => {
    // The body never comes: a server that tried to read it would hang here.
    const { response } = await sendRaw(
      url,
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000`,
    );
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toEqual({ ok: false, error: `request body is larger than ${LIMIT} bytes` });
  });

  test("a chunked body is counted while it streams and refused at the limit", async () => {
    const chunks = Array.from({ length: 400 }, () => "x".repeat(1024));
    const { response, chunksSent } = await sendChunked(
      url,
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json`,
      chunks,
    );
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    // The server answered long before the 400 KiB were sent, and read little past the limit.
    expect(chunksSent).toBeLessThan(100);
    expect(lastBytesRead).toBeLessThan(LIMIT + 8 * 1024);
  });

  test("a chunked body under the limit is read", async () => {
    const { response } = await sendChunked(url, `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json`, [
      '{"a":',
      '"b"',
      "}",
    ]);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).args).toEqual({ a: "b" });
  });

  test("the server still answers after refusing bodies", async () => {
    expect((await post('{"ok":1}', "application/json")).status).toBe(200);
  });
});
