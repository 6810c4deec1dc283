// Every answer of an svc server names its request once in X-Request-Id, however it writes its head.
import { afterAll, beforeAll, describe, expect, test } from "../../support/jest.js";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { request } from "undici";
import { Answer, requestIdOf, writeJsonHead } from "../../../runtime/core/answer/answer.js";
import { trustedHeadersKey } from "../../../runtime/core/answer/trusted-head.js";
import { listen, stop } from "./helpers.js";

let server: Server;
let url: string;
let port: number;

/** The raw head of the answer to `GET path`, header lines as sent (so a repeated header shows). */
function rawHead(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (data: Buffer) => {
      text += data.toString("latin1");
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(text.slice(0, text.indexOf("\r\n\r\n")).split("\r\n")));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  });
}

/** One way of writing a head per path, each on an answer whose id is the path's name. */
const WRITERS: Record<string, (res: Answer) => void> = {
  "/list": (res) => {
    res.writeHead(200, ["Content-Type", "text/plain", "X-Other", "1"]);
    res.end("list");
  },
  "/pairs": (res) => {
    res.writeHead(200, [["Content-Type", "text/plain"]] as unknown as string[]);
    res.end("pairs");
  },
  "/object": (res) => {
    res.writeHead(201, "Made", { "Content-Type": "text/plain" });
    res.end("object");
  },
  "/implicit": (res) => {
    res.statusCode = 202;
    res.end("implicit");
  },
  "/set-before": (res) => {
    res.setHeader("X-Set", "before");
    res.writeHead(200, ["Content-Type", "text/plain"]);
    res.end("set-before");
  },
  "/json": (res) => {
    writeJsonHead(res, 200, 2, true);
    res.end("{}");
  },
  "/json-set-after": (res) => {
    writeJsonHead(res, 201, 1);
    // What Node's header store holds can be read back, as after setHeader.
    res.end(String(res.getHeader("content-length")));
  },
  "/json-after-set": (res) => {
    res.setHeader("Connection", "close");
    writeJsonHead(res, 503, 2);
    res.end("{}");
  },
  "/json-no-store-after-set": (res) => {
    res.setHeader("Connection", "close");
    writeJsonHead(res, 200, 2, true);
    res.end("{}");
  },
};

beforeAll(async () => {
  server = createServer({ ServerResponse: Answer }, (req, res) => {
    const writer = WRITERS[req.url ?? ""];
    res.requestId = `id-${(req.url ?? "").slice(1)}`;
    writer(res);
  });
  url = await listen(server);
  port = Number(new URL(url).port);
});

afterAll(async () => {
  await stop(server);
});

describe("Answer", () => {
  for (const path of Object.keys(WRITERS)) {
    test(`${path}: the id goes out exactly once, with the head the writer gave`, async () => {
      const lines = await rawHead(path);
      const ids = lines.filter((line) => line.toLowerCase().startsWith("x-request-id:"));
      expect(ids).toEqual([`X-Request-Id: id-${path.slice(1)}`]);
    });
  }

  test("the writer's own headers and status are kept", async () => {
    const list = await request(`${url}/list`);
    expect(list.headers["x-other"]).toBe("1");
    await list.body.text();
    const object = await request(`${url}/object`);
    expect(object.statusCode).toBe(201);
    expect(object.headers["x-request-id"]).toBe("id-object");
    await object.body.text();
    const json = await request(`${url}/json`);
    expect(json.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(json.headers["content-length"]).toBe("2");
    expect(json.headers["cache-control"]).toBe("no-store");
    await json.body.text();
    const set = await request(`${url}/set-before`);
    expect(set.headers["x-set"]).toBe("before");
    await set.body.text();
  });

  test("a JSON answer's head: the headers given, in order, once each, whichever way it went in", async () => {
    // On this Node the headers go in as Node's header store (no second check); the head is the
    // same as the checked way's, which an answer with a header set before it takes.
    expect(trustedHeadersKey).not.toBeNull();
    const fast = (await rawHead("/json")).filter((line) => !line.startsWith("Date: "));
    expect(fast).toEqual([
      "HTTP/1.1 200 OK",
      "Content-Type: application/json; charset=utf-8",
      "Content-Length: 2",
      "X-Request-Id: id-json",
      "Cache-Control: no-store",
      "Connection: close",
    ]);
    const checked = (await rawHead("/json-after-set")).filter((line) => !line.startsWith("Date: "));
    expect(checked).toEqual([
      "HTTP/1.1 503 Service Unavailable",
      "Connection: close",
      "Content-Type: application/json; charset=utf-8",
      "Content-Length: 2",
      "X-Request-Id: id-json-after-set",
    ]);
    // /health's head while the server shuts down (Connection: close set before it): checked, and whole.
    const checkedNoStore = (await rawHead("/json-no-store-after-set")).filter((line) => !line.startsWith("Date: "));
    expect(checkedNoStore).toEqual([
      "HTTP/1.1 200 OK",
      "Connection: close",
      "Content-Type: application/json; charset=utf-8",
      "Content-Length: 2",
      "X-Request-Id: id-json-no-store-after-set",
      "Cache-Control: no-store",
    ]);
    const readBack = await request(`${url}/json-set-after`);
    expect(readBack.statusCode).toBe(201);
    expect(await readBack.body.text()).toBe("1");
  });

  test("a list passed to writeHead is not changed", () => {
    const headers = ["Content-Type", "text/plain"];
    const res = new Answer(Object.assign(Object.create(null), { method: "GET", httpVersionMajor: 1, httpVersionMinor: 1, headers: {} }));
    res.requestId = "abc";
    res.writeHead(200, headers);
    expect(headers).toEqual(["Content-Type", "text/plain"]);
    expect(requestIdOf(res)).toBe("abc");
  });
});
