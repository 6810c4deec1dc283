// The task tracker suite's view of the network backends: each server in a namespace of
// its own (databases.ts), the table renamed by an administrator connection.

import type { SuiteBackend } from "../task-tracker.suite.js";
import { type Namespace, type NetBackend, createNamespace } from "./databases.js";

/** `backend` is the server's --backend: tidb runs against the MySQL-protocol server (MariaDB here). */
export function networkSuiteBackend(server: NetBackend, backend: "postgres" | "mysql" | "tidb" = server): SuiteBackend {
  let ns: Namespace | undefined;
  return {
    name: backend === server ? backend : `${backend} (on the ${server} server)`,
    setup: async () => {
      ns = await createNamespace(server, `tt_${backend}`);
      return ["--backend", backend, "--db", ns.url];
    },
    renameTable: async (_dir, from, to) => {
      if (ns === undefined) throw new Error("no namespace");
      await ns.admin(
        server === "postgres" ? `ALTER TABLE "${from}" RENAME TO "${to}"` : `RENAME TABLE \`${from}\` TO \`${to}\``,
      );
    },
    missingTableLog: server === "postgres" ? /relation \\?"task\\?" does not exist/ : /Table '[^']*task' doesn't exist/,
    teardown: async () => {
      await ns?.drop();
    },
  };
}
