// The Fastify 5 baseline on SQLite: the routes, schemas and checks of fastify-routes.ts over
// the same store as the bare baseline (common.ts).
//   node fastify.js --listen 127.0.0.1:PORT --db FILE [--stop-with-stdin]
import { openTaskStore, parseBaselineArgs } from "./common.js";
import { serveFastifyBaseline } from "./fastify-routes.js";

const options = parseBaselineArgs(process.argv.slice(2));
serveFastifyBaseline(openTaskStore(options.db), options);
