// The Node floor: the three task endpoints written by hand on node:http and better-sqlite3,
// as lean as a competent person would write them, doing the same checks as the svc server
// (argument types, required arguments, enums, unknown names, body size and content type).
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NewTask, TaskStore } from "./common.js";
import { healthBody, MAX_BODY_BYTES, openTaskStore, parseBaselineArgs, PRIORITIES, stopOnSignal } from "./common.js";

class BadRequest extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const LIST_ARGS = new Set(["status", "limit", "offset"]);
const GET_ARGS = new Set(["id"]);
const CREATE_ARGS = new Set(["title", "description", "priority", "assignee"]);

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(json),
  });
  res.end(json);
}

function rejectUnknown(names: Iterable<string>, known: ReadonlySet<string>): void {
  const unknown = [...names].filter((name) => !known.has(name));
  if (unknown.length > 0) throw new BadRequest(400, `unknown argument: ${unknown.join(", ")}`);
}

function intArg(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  if (!/^-?\d{1,15}$/.test(raw)) throw new BadRequest(400, `${name} must be an integer`);
  return Number(raw);
}

function optionalText(body: Record<string, unknown>, name: string): string | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new BadRequest(400, `${name} must be a string`);
  return value;
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers["content-type"] ?? "";
  if (!type.startsWith("application/json")) return Promise.reject(new BadRequest(415, "body must be JSON"));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is drained and dropped, so the 413 can still be written back.
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("error", reject);
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) return reject(new BadRequest(413, "body too large"));
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return reject(new BadRequest(400, "malformed JSON"));
      }
      if (body === null || typeof body !== "object" || Array.isArray(body)) {
        return reject(new BadRequest(400, "body must be a JSON object"));
      }
      resolve(body as Record<string, unknown>);
    });
  });
}

function parseCreate(body: Record<string, unknown>): NewTask {
  rejectUnknown(Object.keys(body), CREATE_ARGS);
  if (typeof body.title !== "string") throw new BadRequest(400, "title is required and must be a string");
  const priority = body.priority === undefined ? "medium" : body.priority;
  if (typeof priority !== "string" || !PRIORITIES.has(priority)) {
    throw new BadRequest(400, "priority must be one of low, medium, high, critical");
  }
  if (body.title.trim() === "") throw new BadRequest(400, "title is required");
  return {
    title: body.title,
    description: optionalText(body, "description"),
    priority,
    assignee: optionalText(body, "assignee"),
  };
}

function sendHealth(store: TaskStore, res: ServerResponse): void {
  let ok = true;
  try {
    store.ping();
  } catch (error) {
    console.error(`health check failed: ${(error as Error).message}`);
    ok = false;
  }
  const json = healthBody(ok);
  res.writeHead(ok ? 200 : 503, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(json),
    "cache-control": "no-store",
  });
  res.end(json);
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.setHeader("allow", allow);
  send(res, 405, { ok: false, error: `method not allowed; use ${allow}` });
}

// This is the hot path: one switch on the exact path, no router, statements prepared at start.
async function handle(store: TaskStore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  switch (path) {
    case "/health":
      if (req.method !== "GET") return methodNotAllowed(res, "GET");
      return sendHealth(store, res);
    case "/api/task_tracker:list_tasks": {
      if (req.method !== "GET") return methodNotAllowed(res, "GET");
      const params = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
      rejectUnknown(params.keys(), LIST_ARGS);
      const data = store.list(params.get("status"), intArg(params, "limit", 50), intArg(params, "offset", 0));
      return send(res, 200, { ok: true, data });
    }
    case "/api/task_tracker:get_task": {
      if (req.method !== "GET") return methodNotAllowed(res, "GET");
      const params = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
      rejectUnknown(params.keys(), GET_ARGS);
      const id = params.get("id");
      if (!id) throw new BadRequest(400, "id is required");
      return send(res, 200, { ok: true, data: store.get(id) });
    }
    case "/api/task_tracker:create_task": {
      if (req.method !== "POST") return methodNotAllowed(res, "POST");
      const task = parseCreate(await readJson(req));
      return send(res, 200, { ok: true, data: store.create(task) });
    }
    default:
      return send(res, 404, { ok: false, error: "not found" });
  }
}

const options = parseBaselineArgs(process.argv.slice(2));
const store = openTaskStore(options.db);
const server = createServer((req, res) => {
  handle(store, req, res).catch((error: unknown) => {
    if (error instanceof BadRequest) return send(res, error.status, { ok: false, error: error.message });
    console.error(error);
    send(res, 500, { ok: false, error: "internal error" });
  });
});
server.on("error", (error) => {
  console.error(`bare: cannot listen on ${options.host}:${options.port}: ${error.message}`);
  process.exit(1);
});
server.listen(options.port, options.host);
stopOnSignal(
  () =>
    new Promise((resolve) => {
      server.close(() => {
        store.close();
        resolve();
      });
      server.closeIdleConnections();
    }),
  options.stopWithStdin,
);
