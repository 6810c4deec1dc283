// The HTTP side of the Fastify 5 baselines, on SQLite (fastify.ts) and on PostgreSQL or
// MySQL/MariaDB (backends/fastify-net.ts): one copy, so both measure the same routes, schemas,
// checks and serializer, and differ only in their store. Written as a Node user would write it:
// JSON-schema validation of the query string and body, and a response schema (so replies go
// through Fastify's compiled serializer); logger off.
import Fastify from "fastify";
import type { FastifyError, FastifyInstance } from "fastify";
import { healthBody, MAX_BODY_BYTES, stopOnSignal } from "./common.js";
import type { NewTask } from "./common.js";

type Awaitable<T> = T | Promise<T>;

/** better-sqlite3 answers at once; postgres.js and mysql2 answer with a promise. */
export interface RouteStore {
  list(status: string | null, limit: number, offset: number): Awaitable<readonly object[]>;
  get(id: string): Awaitable<object | null>;
  create(task: NewTask): Awaitable<object>;
  /** Throws or rejects when the database does not answer. */
  ping(): Awaitable<void>;
  close(): Awaitable<void>;
}

export interface ListenOptions {
  host: string;
  port: number;
  /** Stop when stdin closes (see stopOnSignal). */
  stopWithStdin: boolean;
}

const nullableText = { type: ["string", "null"] } as const;

// Dates from the network drivers go out as ISO-8601 text: fast-json-stringify writes a Date in
// a string property with toISOString(). SQLite rows already hold that text.
const taskSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    title: { type: "string" },
    description: nullableText,
    priority: { type: "string" },
    assignee: nullableText,
    status: { type: "string" },
    created_at: { type: "string" },
    completed_at: nullableText,
  },
  required: ["id", "title", "priority", "status", "created_at"],
} as const;

function envelope(data: object): object {
  return {
    200: {
      type: "object",
      properties: { ok: { type: "boolean" }, data },
      required: ["ok", "data"],
    },
  };
}

/** Builds the baseline's app over `store`, serves it, and closes both on a signal. */
export function serveFastifyBaseline(store: RouteStore, { host, port, stopWithStdin }: ListenOptions): void {
  const app = fastifyBaseline(store);
  app.listen({ host, port }).catch((error: Error) => {
    console.error(`fastify: cannot listen on ${host}:${port}: ${error.message}`);
    process.exit(1);
  });
  stopOnSignal(async () => {
    await app.close();
    await store.close();
  }, stopWithStdin);
}

function fastifyBaseline(store: RouteStore): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    // Fastify's default strips unknown properties; svc rejects unknown argument names, so do too.
    ajv: { customOptions: { removeAdditional: false } },
  });

  // The body is svc's /health shape; written as text, as a user would for three fixed fields.
  app.get("/health", async (_request, reply) => {
    let ok = true;
    try {
      await store.ping();
    } catch (error) {
      console.error(`health check failed: ${(error as Error).message}`);
      ok = false;
    }
    return reply
      .code(ok ? 200 : 503)
      .header("content-type", "application/json; charset=utf-8")
      .header("cache-control", "no-store")
      .send(healthBody(ok));
  });

  // `::` is find-my-way's escape for a literal colon (a single one starts a path parameter).
  app.get<{ Querystring: { status?: string; limit: number; offset: number } }>(
    "/api/task_tracker::list_tasks",
    {
      schema: {
        querystring: {
          type: "object",
          properties: {
            status: { type: "string" },
            limit: { type: "integer", default: 50 },
            offset: { type: "integer", default: 0 },
          },
          additionalProperties: false,
        },
        response: envelope({ type: "array", items: taskSchema }),
      },
    },
    async (request) => {
      const { status, limit, offset } = request.query;
      return { ok: true, data: await store.list(status ?? null, limit, offset) };
    },
  );

  app.get<{ Querystring: { id: string } }>(
    "/api/task_tracker::get_task",
    {
      schema: {
        querystring: {
          type: "object",
          properties: { id: { type: "string", minLength: 1 } },
          required: ["id"],
          additionalProperties: false,
        },
        response: envelope({ ...taskSchema, type: ["object", "null"] }),
      },
    },
    async (request) => ({ ok: true, data: await store.get(request.query.id) }),
  );

  app.post<{ Body: { title: string; description?: string | null; priority: string; assignee?: string | null } }>(
    "/api/task_tracker::create_task",
    {
      schema: {
        body: {
          type: "object",
          properties: {
            title: { type: "string" },
            description: nullableText,
            priority: { type: "string", enum: ["low", "medium", "high", "critical"], default: "medium" },
            assignee: nullableText,
          },
          required: ["title"],
          additionalProperties: false,
        },
        response: envelope(taskSchema),
      },
    },
    async (request, reply) => {
      const { title, description, priority, assignee } = request.body;
      if (title.trim() === "") return reply.code(400).send({ ok: false, error: "title is required" });
      const data = await store.create({
        title,
        description: description ?? null,
        priority,
        assignee: assignee ?? null,
      });
      return { ok: true, data };
    },
  );

  // Fastify parses text/plain by default; svc answers 415 to anything but JSON or a form.
  app.removeContentTypeParser("text/plain");

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ ok: false, error: "not found" }));

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) console.error(error);
    return reply.code(status).send({ ok: false, error: status >= 500 ? "internal error" : error.message });
  });
  return app;
}
