// The Fastify 5 baseline on PostgreSQL or MySQL/MariaDB: the routes, schemas and checks of
// baselines/fastify-routes.ts, as on SQLite, over the same drivers svc uses (stores.ts).
//   node fastify-net.js --listen 127.0.0.1:PORT --backend postgres|mysql --db URL [--stop-with-stdin]
import { parseArgs } from "node:util";
import { serveFastifyBaseline } from "../baselines/fastify-routes.js";
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

const { store, ...listen } = options();
serveFastifyBaseline(store, listen);
