// The codes as the runtime raises and logs them: each error class carries one, real failures
// carry theirs, a code reaches the log line and never the answer's body.

import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import { createServer, type Server, type ServerResponse } from "node:http";
import { request } from "undici";
import { describeClientError } from "../../../runtime/core/client-errors.js";
import { sendError } from "../../../runtime/core/answer/envelope.js";
import { Fail, HttpError, OutOfRangeError, StartupError, SvcError, ValidationError } from "../../../runtime/core/errors.js";
import { bindSlots, BindError } from "../../../runtime/db/net/args.js";
import { createIdGenerator } from "../../../runtime/lang/ids.js";
import { parseServerArgs } from "../../../runtime/start/options.js";
import { listen, memoryLogger, stop } from "./helpers.js";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("nothing was thrown");
}

describe("the error classes carry a code", () => {
  test("an HttpError names its code, or is SVC_ERR_HTTP (the generated code's own 404)", () => {
    expect(new HttpError(404, "not found").code).toBe("SVC_ERR_HTTP");
    const named = new HttpError(400, "malformed JSON body", { code: "SVC_ERR_BAD_BODY", headers: { A: "b" } });
    expect([named.code, named.status, named.message, named.headers]).toEqual(["SVC_ERR_BAD_BODY", 400, "malformed JSON body", { A: "b" }]);
  });

  test("a Fail is SVC_ERR_FAIL whatever its status; a ValidationError is a 400 with its code", () => {
    expect(new Fail(409, "taken").code).toBe("SVC_ERR_FAIL");
    expect(new Fail(401, "who?", "Bearer").headers).toEqual({ "WWW-Authenticate": "Bearer" });
    expect(new Fail(404, "gone").headers).toBeUndefined();
    const v = new ValidationError("SVC_ERR_ARGUMENT", 'argument "title" is required');
    expect([v.status, v.code, v instanceof HttpError]).toEqual([400, "SVC_ERR_ARGUMENT", true]);
  });

  test("StartupError, OutOfRangeError and BindError keep their kinds and carry their codes", () => {
    const s = new StartupError("SVC_ERR_OPTION", "bad");
    expect([s instanceof SvcError, s.code, s.name]).toEqual([true, "SVC_ERR_OPTION", "StartupError"]);
    expect(new OutOfRangeError("SVC_ERR_CLOCK_RANGE", "x")).toBeInstanceOf(RangeError);
    expect(new BindError("SVC_ERR_BIND", "x")).toBeInstanceOf(TypeError);
  });
});

describe("real failures carry their codes", () => {
  test("a bad flag is SVC_ERR_OPTION", () => {
    expect(thrown(() => parseServerArgs(["--log-level", "loud"], {}, {}))).toMatchObject({ code: "SVC_ERR_OPTION" });
    expect(thrown(() => parseServerArgs(["--nope"], {}, {}))).toMatchObject({ code: "SVC_ERR_OPTION" });
  });

  test("an id for a clock outside 48 bits is SVC_ERR_CLOCK_RANGE; a non-scalar argument is SVC_ERR_BIND", () => {
    expect(thrown(() => createIdGenerator(() => -1)())).toMatchObject({ code: "SVC_ERR_CLOCK_RANGE" });
    expect(thrown(() => bindSlots("t.s", [0], [{ a: 1 }]))).toMatchObject({ code: "SVC_ERR_BIND" });
  });

  test("each refusal of Node's parser has its code", () => {
    const err = (code: string) => Object.assign(new Error("x"), { code });
    expect(describeClientError(err("HPE_HEADER_OVERFLOW"), 1000)?.code).toBe("SVC_ERR_HEADERS_TOO_LARGE");
    expect(describeClientError(err("ERR_HTTP_REQUEST_TIMEOUT"), 1000)?.code).toBe("SVC_ERR_READ_TIMEOUT");
    expect(describeClientError(err("HPE_INVALID_METHOD"), 1000)?.code).toBe("SVC_ERR_BAD_FRAMING");
  });
});

describe("a code goes to the log line, not to the answer", () => {
  const memory = memoryLogger("debug");
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

  async function answered(err: unknown, requestId: string): Promise<{ text: string; line: Record<string, unknown> | undefined }> {
    answer = (res) => sendError(res, err, memory.log, { request_id: requestId });
    const res = await request(url);
    const text = await res.body.text();
    return { text, line: memory.lines().find((l) => l.request_id === requestId) };
  }

  test("an HttpError: the envelope is as it was; the debug line has the code", async () => {
    const { text, line } = await answered(new HttpError(415, "unsupported charset", { code: "SVC_ERR_UNSUPPORTED_MEDIA_TYPE" }), "c1");
    expect(JSON.parse(text)).toEqual({ ok: false, error: "unsupported charset" });
    expect(line).toMatchObject({ msg: "request failed", status: 415, code: "SVC_ERR_UNSUPPORTED_MEDIA_TYPE" });
  });

  test("an internal error: the line has the error's code, or SVC_ERR_INTERNAL for an error the runtime did not raise", async () => {
    const bind = await answered(new BindError("SVC_ERR_BIND", "argument 0 is an object"), "c2");
    expect(bind.text).toBe('{"ok":false,"error":"internal error"}');
    expect(bind.line).toMatchObject({ msg: "internal error", code: "SVC_ERR_BIND" });
    const plain = await answered(Object.assign(new Error("driver broke"), { code: "ECONNRESET" }), "c3");
    expect(plain.text).toBe('{"ok":false,"error":"internal error"}');
    expect(plain.line).toMatchObject({ msg: "internal error", code: "SVC_ERR_INTERNAL" });
  });
});
