// Revocation on PostgreSQL and MariaDB: the suite of tests/auth/revocation.suite.ts, two
// server processes on one database.

import { test } from "../support/jest.js";
import { revocationSuite } from "../auth/revocation.suite.js";
import { type NetBackend, backendAvailable, createNamespace } from "./support/databases.js";

for (const backend of ["postgres", "mysql"] as NetBackend[]) {
  if (!(await backendAvailable(backend))) {
    test.skip(`revocation on ${backend} (no server)`, () => undefined);
    continue;
  }
  revocationSuite(backend, async () => {
    const ns = await createNamespace(backend, `revoke_${backend}`);
    return { args: ["--backend", backend, "--db", ns.url], admin: (sql) => ns.admin(sql), close: () => ns.drop() };
  });
}
