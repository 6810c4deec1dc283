// The Fastify 5 baseline of the TFB bench: the six test types by TFB's rules (the TechEmpower
// wiki's "Framework Tests Overview"), written as a Fastify user would, on postgres.js
// (store.ts). Response schemas, so JSON goes through Fastify's compiled serializer; logger off.
//   node server.js --listen 127.0.0.1:PORT --db 'postgres://…/test?schema=NAME' [--stop-with-stdin]
import Fastify from "fastify";
import { parseBaselineArgs, stopOnSignal } from "../../baselines/common.js";
import { fortunesHtml, HELLO, queriesParam, randomWorld } from "../rules.js";
import { tfbStore } from "../store.js";

const options = parseBaselineArgs(process.argv.slice(2));
const store = tfbStore(options.db);
const app = Fastify({ logger: false });

const world = {
  type: "object",
  properties: { id: { type: "integer" }, randomNumber: { type: "integer" } },
} as const;
const worlds = { type: "array", items: world } as const;
const queries = { type: "object", properties: { queries: { type: "string" } } } as const;

// TFB requires a Server header on every answer; Node adds Date.
app.addHook("onSend", async (_request, reply) => {
  void reply.header("server", "Fastify");
});

app.get(
  "/json",
  { schema: { response: { 200: { type: "object", properties: { message: { type: "string" } } } } } },
  async () => ({ message: HELLO }),
);

app.get("/plaintext", async (_request, reply) => {
  void reply.header("content-type", "text/plain");
  return HELLO;
});

app.get("/db", { schema: { response: { 200: world } } }, () => store.world(randomWorld()));

app.get("/queries", { schema: { querystring: queries, response: { 200: worlds } } }, (request) =>
  store.worlds(queriesParam((request.query as { queries?: string }).queries)),
);

app.get("/updates", { schema: { querystring: queries, response: { 200: worlds } } }, (request) =>
  store.update(queriesParam((request.query as { queries?: string }).queries)),
);

app.get("/fortunes", async (_request, reply) => {
  void reply.header("content-type", "text/html; charset=utf-8");
  return fortunesHtml(await store.fortunes());
});

app.listen({ host: options.host, port: options.port }).catch((error: Error) => {
  console.error(`tfb fastify: cannot listen on ${options.host}:${options.port}: ${error.message}`);
  process.exit(1);
});
stopOnSignal(async () => {
  await app.close();
  await store.close();
}, options.stopWithStdin);
