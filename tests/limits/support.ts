// What the rate-limit tests share: the test project (tests/limits/project), built once per
// file, and the databases it runs on: a SQLite file, and a schema or database of its own
// on PostgreSQL and MariaDB (tests/backends/support/databases.ts), each shared by every
// server a test starts, as processes behind one load balancer would share it.

import { join } from "node:path";
import { SECRET } from "../auth/support.js";
import { type Namespace, type NetBackend, backendAvailable, createNamespace } from "../backends/support/databases.js";
import { call, type Answer } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { startServer, type TestServer } from "../support/server.js";

export const PROJECT = join(repoRoot, "tests", "limits", "project");

export interface Backend {
  name: "sqlite" | NetBackend;
  /** `--backend` and `--db` of a server on this run's database. */
  args(dir: string): string[];
  drop(): Promise<void>;
}

/** The backends to run on, each opened when its tests start: SQLite always; PostgreSQL and MariaDB when their servers answer. */
export async function backends(label: string): Promise<{ name: Backend["name"]; open: () => Promise<Backend> }[]> {
  const out: { name: Backend["name"]; open: () => Promise<Backend> }[] = [
    {
      name: "sqlite",
      open: async () => ({ name: "sqlite", args: (dir) => ["--backend", "sqlite", "--db", join(dir, `${label}.db`)], drop: async () => undefined }),
    },
  ];
  for (const backend of ["postgres", "mysql"] as NetBackend[]) {
    if (!(await backendAvailable(backend))) continue;
    out.push({
      name: backend,
      open: async () => {
        const ns: Namespace = await createNamespace(backend, `${label}_${backend}`);
        return { name: backend, args: () => ["--backend", backend, "--db", ns.url], drop: () => ns.drop() };
      },
    });
  }
  return out;
}

export function serve(dir: string, backend: Backend, extra: string[] = []): Promise<TestServer> {
  return startServer(dir, [...backend.args(dir), ...extra], { JWT_SECRET: SECRET });
}

export function postJson(server: TestServer, path: string, json: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(server.url + path, { method: "POST", json, headers });
}

/** The answers of `n` requests made one after another. */
export async function times(n: number, send: () => Promise<Answer>): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await send());
  return out;
}
