// The Fastify 5 baseline on PostgreSQL or MySQL/MariaDB: the routes, schemas and checks
// of baselines/fastify.ts, over the same drivers svc uses (stores.ts).
//   node fastify-net.js --listen 127.0.0.1:PORT --backend postgres|mysql --db URL [--stop-with-stdin]
import Fastify from "fastify";
import type { FastifyError } from "fastify";
import { parseArgs } from "node:util";
import { MAX_BODY_BYTES, stopOnSignal } from "../baselines/common.js";
import { type NetTaskStore, mysqlStore, postgresStore } from "./stores.js";

const USAGE =
  "usage: node fastify-net.js --listen 127.0.0.1:PORT --backend postgres|mysql --db URL [--stop-with-stdin]";

function options(): { host: string; port: number; store: NetTaskStore; stopWithStdin: boolean } {
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        listen: { type: "string" },
        backend: { type: "string" },
        db: { type: "string" },
        "stop-with-stdin": { type: "boolean" },
      },
      strict: true,
    });
    const match = /^(.+):(\d{1,5})$/.exec(values.listen ?? "");
    if (!match || !values.db) throw new Error("--listen and --db are required");
    if (values.backend !== "postgres" && values.backend !== "mysql")
      throw new Error("--backend must be postgres or mysql");
    return {
      host: match[1],
      port: Number(match[2]),
      store: values.backend === "postgres" ? postgresStore(values.db) : mysqlStore(values.db),
      stopWithStdin: values["stop-with-stdin"] ?? false,
    };
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const nullableText = { type: ["string", "null"] } as const;
// Dates from the drivers go out as ISO-8601 text: fast-json-stringify writes a Date in a
// string property with toISOString().
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

const envelope = (data: object): object => ({
  200: { type: "object", properties: { ok: { type: "boolean" }, data }, required: ["ok", "data"] },
});

const { host, port, store, stopWithStdin } = options();
const app = Fastify({ logger: false, bodyLimit: MAX_BODY_BYTES, ajv: { customOptions: { removeAdditional: false } } });

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
      title: title.trim(),
      description: description ?? null,
      priority,
      assignee: assignee ?? null,
    });
    return { ok: true, data };
  },
);

app.removeContentTypeParser("text/plain");
app.setNotFoundHandler((_request, reply) => reply.code(404).send({ ok: false, error: "not found" }));
app.setErrorHandler((error: FastifyError, _request, reply) => {
  const status = error.statusCode ?? 500;
  if (status >= 500) console.error(error);
  return reply.code(status).send({ ok: false, error: status >= 500 ? "internal error" : error.message });
});

app.listen({ host, port }).catch((error: Error) => {
  console.error(`fastify: cannot listen on ${host}:${port}: ${error.message}`);
  process.exit(1);
});
stopOnSignal(async () => {
  await app.close();
  await store.close();
}, stopWithStdin);
