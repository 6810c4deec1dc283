// The request log line (docs/operations.md, "Logs"): one a request at info,
// `{"time","level":"info","msg":"request","request_id","method","path","status","duration_ms"}`,
// and `"trace_id"` last when the request is traced.
//
// Written for every request, so it is glued from few pieces, most of them made once and
// flat. A line is written as one flat string, and flattening a rope costs by its pieces
// (some 60 instructions each): a line made by one template, a dozen pieces, took some 450
// instructions more to build and write than one of five pieces (callgrind, 100,000 lines).
// For a declared path the part from the method to the duration's name is made once for each
// method and status met there, and the time up to the second once a second.

import { isoSecond, MILLIS_Z } from "./time.js";

export interface RequestLogEntry {
  requestId: string;
  method: string;
  path: string;
  /** The declared path the request's path is exactly (see Router), or null. */
  logged: LoggedPath | null;
  status: number;
  durationMs: number;
}

const AFTER_TIME = '","level":"info","msg":"request","request_id":"';

/** A declared path as request lines write it, with the middle of its last line kept. */
export class LoggedPath {
  private method = "";
  private status = -1;
  private middle = "";

  /** `json`: the path as a JSON string of printable ASCII. */
  constructor(private readonly json: string) {}

  /** `","method":"GET","path":"/x","status":200,"duration_ms":`, flat, remade only when the method or status changes. */
  middleFor(method: string, status: number): string {
    if (method !== this.method || status !== this.status) {
      // join makes one flat string (of two pieces or more); a template would make a rope.
      this.middle = ['","method":"', method, '","path":', this.json, ',"status":', String(status), ',"duration_ms":'].join("");
      this.method = method;
      this.status = status;
    }
    return this.middle;
  }
}

/** A LoggedPath for a declared path, or null when its JSON needs escaping. */
export function loggedPath(path: string): LoggedPath | null {
  const json = plainJsonString(path);
  return json === null ? null : new LoggedPath(json);
}

/** The same middle for any path, made per request: `pathJson` is the path as a JSON string. */
export function middleOf(method: string, pathJson: string, status: number): string {
  return `","method":"${method}","path":${pathJson},"status":${status},"duration_ms":`;
}

/** A line's end; a traced request's line ends `,"trace_id":"…"}`, the key `formatLine` would add last. */
export const [LINE_END, TRACE_ID, TRACED_LINE_END] = ["}\n", ',"trace_id":"', '"}\n'] as const;

/** The line for `entry`, with the middle from `middleFor` or `middleOf`, ending with `end` (LINE_END, or a trace id's). */
export function requestLine(entry: RequestLogEntry, middle: string, end: string): string {
  return lineStart(Date.now()) + entry.requestId + middle + Math.round(entry.durationMs * 100) / 100 + end;
}

let startSecond = Number.NaN;
let startHead = "";

/** `{"time":"…sssZ","level":"info","msg":"request","request_id":"` for `ms` since the epoch. */
function lineStart(ms: number): string {
  const millis = ms % 1000;
  const second = ms - millis;
  if (second !== startSecond) {
    startHead = ['{"time":"', isoSecond(second)].join("");
    startSecond = second;
  }
  return startHead + MILLIS_Z[millis] + AFTER_TIME;
}

/**
 * `JSON.stringify(text)` when `text` is printable ASCII with no quote or backslash, as a
 * request path nearly always is (Node has percent-decoded nothing), else null. One regex
 * test costs far less than a call into JSON.stringify, and less than a loop over the
 * characters in JavaScript (about 300 instructions against 1,350 for a 26-character path).
 */
export function plainJsonString(text: string): string | null {
  return NOT_PLAIN.test(text) ? null : `"${text}"`;
}

const NOT_PLAIN = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;
