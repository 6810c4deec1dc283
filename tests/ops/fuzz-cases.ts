// Request generation for the fuzz test (fuzz.test.ts): valid requests to every kind of
// endpoint the task tracker serves, then seeded mutations of them, either at the JSON level
// (a wrong type for an argument or a payload member, huge numbers, deep nesting, odd
// Unicode; sent with fetch) or at the byte level (method, path, headers, body; sent over a
// raw socket). Each case draws from its own generator, made from the seed and the case's
// number, so any one case can be replayed alone.

import { createHmac } from "node:crypto";

export type Rng = () => number;

/** mulberry32: small, fast, and the same sequence on every platform. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function caseRng(seed: number, index: number): Rng {
  return mulberry32((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
}

const int = (r: Rng, n: number): number => Math.floor(r() * n);
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[int(r, xs.length)];

export interface FuzzRequest {
  transport: "raw" | "fetch";
  method: string;
  path: string;
  headers: [string, string][];
  body: Buffer;
  /** What the case is, for the failure report. */
  label: string;
}

export interface FuzzContext {
  /** Ids of tasks that exist (or did, before a fuzzed delete). */
  ids: string[];
  webhookSecret: string;
}

/** JSON texts of values no argument declares: each a wrong type somewhere. */
const ODD_JSON: readonly string[] = [
  "0",
  "-0",
  "1.5",
  "-1",
  "1e308",
  "1e999",
  "-1e999",
  "9007199254740993",
  "123456789012345678901234567890",
  "true",
  "false",
  "null",
  "[]",
  "{}",
  '[1,"a",null]',
  '{"a":{"b":[]}}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '""',
  '" "',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udc00x\\ud83d"',
  '"\\u202e\\u200b\\ufeff"',
  '"ｔｉｔｌｅ ﷽ 𝕏 😀"',
  '"\'; DROP TABLE task; --"',
  '"<script>alert(1)</script>"',
  '"{{title}}"',
  '"2024-13-45T99:99:99Z"',
  '"open"',
  '"critical"',
  '"01ARZ3NDEKTSV4RRFFQ69G5FAV"',
];

function oddJson(r: Rng): string {
  const roll = r();
  if (roll < 0.08) {
    const depth = pick(r, [64, 1000, 100_000]);
    return pick(r, ["[", '{"a":']) === "[" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
  }
  if (roll < 0.12) return JSON.stringify("x".repeat(pick(r, [256, 70_000])));
  if (roll < 0.16) return JSON.stringify(String.fromCharCode(...Array.from({ length: 12 }, () => int(r, 0x10000))));
  return pick(r, ODD_JSON);
}

/** Query-string values a browser would never send. */
const ODD_QUERY: readonly string[] = ["", "%", "%ZZ", "%00", "%FF", "%C0%AF", "-1", "1e3", "99999999999999999999", "open&status=done", "%E2%80%AE", "a+b", "\u00e9", "[]", "null", "NaN"];

function objectText(entries: [string, string][]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;
}

/** A JSON-level mutation of an argument object: one member replaced, added, removed or the whole body odd. */
function mutateArgs(r: Rng, entries: [string, string][]): string {
  const out = entries.map(([k, v]) => [k, v] as [string, string]);
  const roll = r();
  if (roll < 0.55 && out.length > 0) out[int(r, out.length)][1] = oddJson(r);
  else if (roll < 0.7) out.push([pick(r, ["extra", "__proto__", "constructor", "", "title"]), oddJson(r)]);
  else if (roll < 0.8 && out.length > 0) out.splice(int(r, out.length), 1);
  else if (roll < 0.9) return oddJson(r);
  else for (const e of out) e[1] = oddJson(r);
  return objectText(out);
}

function someId(r: Rng, ctx: FuzzContext): string {
  if (ctx.ids.length > 0 && r() < 0.7) return pick(r, ctx.ids);
  return pick(r, ["nope", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "x".repeat(65), "%00", "..", "%2F"]);
}

const json = (s: string): Buffer => Buffer.from(s, "utf8");
const JSON_HEADERS: [string, string][] = [["Content-Type", "application/json"]];

/** The valid requests every case starts from. */
function template(r: Rng, ctx: FuzzContext): FuzzRequest {
  const id = someId(r, ctx);
  const base = (method: string, path: string, body = "", headers: [string, string][] = []): FuzzRequest => ({
    transport: "fetch",
    method,
    path,
    headers: body === "" ? headers : [...JSON_HEADERS, ...headers],
    body: json(body),
    label: `${method} ${path}`,
  });
  const action = (name: string, entries: [string, string][]): FuzzRequest => {
    const req = base("POST", `/api/task_tracker:${name}`, objectText(entries));
    if (r() < 0.8) req.body = json(mutateArgs(r, entries));
    return req;
  };
  const query = (path: string, params: [string, string][]): FuzzRequest => {
    const mutated = params.map(([k, v]) => [k, r() < 0.4 ? pick(r, ODD_QUERY) : v] as [string, string]);
    if (r() < 0.2) mutated.push([pick(r, ["limit", "extra", "offset", ""]), pick(r, ODD_QUERY)]);
    const qs = mutated.map(([k, v]) => `${k}=${v}`).join("&");
    return base("GET", qs === "" ? path : `${path}?${qs}`);
  };
  switch (int(r, 12)) {
    case 0:
      return query("/api/task_tracker:list_tasks", [["status", "open"], ["limit", "10"], ["offset", "0"]]);
    case 1:
      return query("/api/task_tracker:get_task", [["id", id]]);
    case 2:
      return action("create_task", [["title", '"fuzz"'], ["description", '"d"'], ["priority", '"high"'], ["assignee", '"a"']]);
    case 3:
      return action("start_task", [["id", JSON.stringify(id)], ["assignee", '"ann"']]);
    case 4:
      return action(pick(r, ["complete_task", "delete_task"]), [["id", JSON.stringify(id)]]);
    case 5:
      return base(pick(r, ["GET", "DELETE"]), `/v1/tasks/${encodeURIComponent(id)}`);
    case 6: {
      const req = base("POST", `/v1/tasks${pick(r, ["", `/${id}/start`, `/${id}/complete`])}`, objectText([["title", '"t"'], ["assignee", '"b"']]));
      req.body = json(mutateArgs(r, [["title", '"t"'], ["assignee", '"b"']]));
      return req;
    }
    case 7:
      return webhook(r, ctx);
    case 8:
      return base("GET", pick(r, ["/tasks", `/tasks/${id}`, "/", "/health", "/style.css", "/favicon.svg", `/api/task_tracker/${id}`]) + pick(r, ["", "", "?status=open", `?status=${pick(r, ODD_QUERY)}&limit=${pick(r, ODD_QUERY)}`, "?handler=x"]));
    case 9: {
      // A form posted to a route file, as the pages post it (same-origin), to a default or named block.
      // Already form-encoded: invalid escapes and the UTF-8 of a lone surrogate included.
      const fields = [
        [pick(r, ["title", "assignee", "title", "priority"]), pick(r, ["t", "", "%00", "%C3%BF", "x".repeat(300), "%ED%A0%80", "%FF", "%", "a+b"])],
        [pick(r, ["priority", "title", "extra"]), pick(r, ["low", "huge", ""])],
      ];
      const body = fields.map(([k, v]) => `${k}=${v}`).join("&");
      const handler = pick(r, ["", "?handler=start_task", "?handler=complete_task", "?handler=delete_task", "?handler=nope", "?handler="]);
      return {
        ...base("POST", r() < 0.4 ? "/api/task_tracker" : `/api/task_tracker/${encodeURIComponent(id)}${handler}`, ""),
        headers: [["Content-Type", pick(r, ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"])], ["Sec-Fetch-Site", "same-origin"]],
        body: json(body),
      };
    }
    case 10:
      return base(pick(r, ["PUT", "PATCH", "OPTIONS", "HEAD", "TRACE"]), pick(r, ["/api/task_tracker:create_task", "/v1/tasks", "/webhooks/github", "/tasks"]));
    default:
      return query("/v1/tasks", [["status", pick(r, ["open", "done"])], ["limit", "5"]]);
  }
}

/** A GitHub delivery, correctly signed over its (mutated) body, so the handler sees the members. */
function webhook(r: Rng, ctx: FuzzContext): FuzzRequest {
  const issue: [string, string][] = [["title", '"Fuzzed issue"'], ["html_url", '"https://example.com/i/1"']];
  const issueText = r() < 0.75 ? mutateArgs(r, issue) : objectText(issue);
  const top: [string, string][] = [["action", r() < 0.2 ? oddJson(r) : '"opened"'], ["issue", issueText]];
  const body = r() < 0.1 ? oddJson(r) : objectText(top);
  const signature = createHmac("sha256", r() < 0.9 ? ctx.webhookSecret : "wrong").update(body).digest("hex");
  return {
    transport: "fetch",
    method: "POST",
    path: "/webhooks/github",
    headers: [
      ["Content-Type", pick(r, ["application/json", "application/x-www-form-urlencoded", "text/plain"])],
      ["X-GitHub-Event", r() < 0.9 ? "issues" : pick(r, ["ping", "", "x".repeat(300)])],
      ["X-GitHub-Delivery", r() < 0.9 ? `fuzz-${int(r, 1e9)}` : pick(r, ["", "x".repeat(300), "é"])],
      ["X-Hub-Signature-256", r() < 0.95 ? `sha256=${signature}` : pick(r, ["sha256=", "sha1=00", "sha256=zz"])],
    ],
    body: json(body),
    label: "POST /webhooks/github",
  };
}

/** The request as bytes on the wire, with Host, Content-Length and Connection: close. */
export function serialize(req: FuzzRequest): Buffer {
  const lines = [`${req.method} ${req.path} HTTP/1.1`, "Host: 127.0.0.1", ...req.headers.map(([k, v]) => `${k}: ${v}`)];
  if (req.body.length > 0 || req.method === "POST") lines.push(`Content-Length: ${req.body.length}`);
  lines.push("Connection: close");
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), req.body]);
}

const ODD_BYTES = [0x00, 0x0a, 0x0d, 0x20, 0x3a, 0x7f, 0x80, 0xc0, 0xff, 0x25, 0x2f, 0x3f, 0x23, 0x09];
const ODD_HEADERS: readonly string[] = [
  "Transfer-Encoding: chunked",
  "Content-Length: -1",
  "Content-Length: 99999999999999999999",
  "Content-Length: 5, 6",
  "Expect: 100-continue",
  "Host: other",
  "Content-Type: application/json; charset=utf-16",
  "Content-Type: text/plain",
  "Content-Encoding: gzip",
  "X-Request-Id: \u00ff\u00fe",
  "Connection: keep-alive, Upgrade",
  "Upgrade: websocket",
  "Authorization: Bearer \u0000",
  ` X-Folded: yes`,
  "X-Long: " + "a".repeat(20_000),
];

/** One to three byte-level changes to a serialized request. */
function mutateBytes(r: Rng, bytes: Buffer): Buffer {
  let b = Buffer.from(bytes);
  const headEnd = Math.max(0, b.indexOf("\r\n\r\n"));
  for (let n = 1 + int(r, 3); n > 0; n--) {
    const at = int(r, b.length + 1);
    switch (int(r, 8)) {
      case 0: // a byte changed
        if (b.length > 0) b[Math.min(at, b.length - 1)] = r() < 0.5 ? pick(r, ODD_BYTES) : int(r, 256);
        break;
      case 1: // bytes inserted
        b = Buffer.concat([b.subarray(0, at), Buffer.from(Array.from({ length: 1 + int(r, 8) }, () => pick(r, ODD_BYTES))), b.subarray(at)]);
        break;
      case 2: // a range removed
        b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + int(r, 16)))]);
        break;
      case 3: // cut short: the server must give up within the read timeout
        b = b.subarray(0, at);
        break;
      case 4: {
        // the method replaced
        const sp = b.indexOf(" ");
        const method = pick(r, ["", "G\u00c9T", "get", "GET\u0000", "POST\tX", "M".repeat(100), "PRI", "CONNECT", "DELETE", "HEAD"]);
        b = Buffer.concat([Buffer.from(method, "latin1"), b.subarray(Math.max(0, sp))]);
        break;
      }
      case 5: {
        // the path replaced
        const first = b.indexOf(" ");
        const second = b.indexOf(" ", first + 1);
        const path = pick(r, ["*", "//", "/..%2f..%2fetc/passwd", "/api/task_tracker:%00", "http://x/y", "/%", "/" + "a".repeat(9000), "/api/task_tracker:list_tasks?limit=%FF%FE", "/tasks/\u00ff", "/v1/tasks/%E0%A4%A", "/?#"]);
        if (first > 0 && second > first) b = Buffer.concat([b.subarray(0, first + 1), Buffer.from(path, "latin1"), b.subarray(second)]);
        break;
      }
      case 6: {
        // a header added to the head
        const line = Buffer.from(`${pick(r, ODD_HEADERS)}\r\n`, "latin1");
        const firstLineEnd = b.indexOf("\r\n") + 2;
        if (firstLineEnd > 1) b = Buffer.concat([b.subarray(0, firstLineEnd), line, b.subarray(firstLineEnd)]);
        break;
      }
      default: {
        // the body replaced by bytes of any value
        const start = headEnd > 0 ? headEnd + 4 : b.length;
        b = Buffer.concat([b.subarray(0, start), Buffer.from(Array.from({ length: int(r, 64) }, () => int(r, 256)))]);
      }
    }
  }
  return b;
}

/** A case: the request, its bytes, and for raw cases how they go out. */
export interface FuzzCase {
  req: FuzzRequest;
  bytes: Buffer;
  /** Final responses to wait for: 2 when a valid keep-alive request goes first on the connection. */
  responses: number;
  /** Sizes of the pieces the bytes are written in (one write when empty), so the parser sees every boundary. */
  pieces: number[];
}

/** Case `index`: a valid request mutated at the JSON level (fetch) or at the byte level (raw). */
export function fuzzCase(seed: number, index: number, ctx: FuzzContext): FuzzCase {
  const r = caseRng(seed, index);
  const req = template(r, ctx);
  // Methods fetch refuses, and half of the rest, go over a raw socket, with bytes mutated.
  if (!(["TRACE", "CONNECT"].includes(req.method) || r() < 0.5)) return { req, bytes: serialize(req), responses: 1, pieces: [] };
  req.transport = "raw";
  let bytes = serialize(req);
  if (r() < 0.85) bytes = mutateBytes(r, bytes);
  let responses = 1;
  if (r() < 0.1) {
    // Behind a valid request on the same kept-alive connection.
    const first = Buffer.from("GET /api/task_tracker:list_tasks?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "latin1");
    bytes = Buffer.concat([first, bytes]);
    responses = 2;
  }
  const pieces: number[] = [];
  if (r() < 0.15) for (let left = bytes.length; left > 0; ) left -= pieces[pieces.push(1 + int(r, 40)) - 1];
  return { req, bytes, responses, pieces };
}
