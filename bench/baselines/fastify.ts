// What a Node user would pick: Fastify 5 with JSON-schema validation of the query string and
// body and a response schema (so replies go through its compiled serializer), logger off.
import Fastify from "fastify";
import type { FastifyError } from "fastify";
import { MAX_BODY_BYTES, openTaskStore, parseBaselineArgs, stopOnSignal } from "./common.js";

const nullableText = { type: ["string", "null"] } as const;

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

const options = parseBaselineArgs(process.argv.slice(2));
const store = openTaskStore(options.db);
const app = Fastify({
  logger: false,
  bodyLimit: MAX_BODY_BYTES,
  // Fastify's default strips unknown properties; svc rejects unknown argument names, so do too.
  ajv: { customOptions: { removeAdditional: false } },
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
    return { ok: true, data: store.list(status ?? null, limit, offset) };
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
  async (request) => ({ ok: true, data: store.get(request.query.id) }),
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
    const data = store.create({ title, description: description ?? null, priority, assignee: assignee ?? null });
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

app.listen({ host: options.host, port: options.port }).catch((error: Error) => {
  console.error(`fastify: cannot listen on ${options.host}:${options.port}: ${error.message}`);
  process.exit(1);
});
stopOnSignal(async () => {
  await app.close();
  store.close();
}, options.stopWithStdin);
