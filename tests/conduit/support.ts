// The Conduit example (examples/conduit) under test: built once per test file, served on
// 127.0.0.1, and run against RealWorld's official Postman collection with newman's Node API.

import { createRequire } from "node:module";
import { join } from "node:path";
import { repoRoot } from "../support/paths.js";
import { buildTo, removeDir, startServer, type TestServer } from "../support/server.js";

/** The example's JWT secret in tests: 48 bytes. */
export const SECRET = "conduit-test-secret-conduit-test-secret-0123456";

/** The official collection, copied unchanged (tests/conduit/realworld/README.md). */
export const COLLECTION = join(repoRoot, "tests", "conduit", "realworld", "Conduit.postman_collection.json");

export interface Conduit {
  server: TestServer;
  dir: string;
  stop(): Promise<number | null>;
}

/** Builds examples/conduit and serves it with `args` (a fresh SQLite file unless they say). */
export async function startConduit(args: string[] = []): Promise<Conduit> {
  const dir = await buildTo({ mode: "project", dir: join(repoRoot, "examples", "conduit") });
  const db = args.includes("--db") ? [] : ["--db", join(dir, "conduit.db")];
  const server = await startServer(dir, [...db, ...args], { JWT_SECRET: SECRET });
  return {
    server,
    dir,
    stop: async () => {
      const code = await server.stop();
      removeDir(dir);
      return code;
    },
  };
}

// newman ships no type declarations: this is the part of its API the tests use.
interface Failure {
  error: { name: string; message: string; test?: string };
  source?: { name?: string };
  parent?: { name?: string };
}
interface Summary {
  run: {
    stats: Record<"requests" | "assertions" | "testScripts", { total: number; failed: number }>;
    failures: Failure[];
  };
}
interface Newman {
  run(options: Record<string, unknown>, done: (err: Error | null, summary: Summary) => void): unknown;
}

export interface CollectionRun {
  requests: { total: number; failed: number };
  assertions: { total: number; failed: number };
  scriptErrors: number;
  /** One line per failure: the request, then what failed. */
  failures: string[];
}

/**
 * Runs the official collection against `apiUrl` (…/api) with the global variables of its
 * README: a username and e-mail new to the database, so a database that other runs used
 * serves it too.
 */
export function runCollection(apiUrl: string): Promise<CollectionRun> {
  const newman = createRequire(import.meta.url)("newman") as Newman;
  const unique = `u${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection: COLLECTION,
        reporters: [],
        globalVar: [
          { key: "APIURL", value: apiUrl },
          { key: "USERNAME", value: unique },
          { key: "EMAIL", value: `${unique}@mail.com` },
          { key: "PASSWORD", value: "password" },
        ],
        timeoutRequest: 10_000,
      },
      (err, summary) => {
        if (err) return reject(err);
        const s = summary.run.stats;
        resolve({
          requests: { total: s.requests.total, failed: s.requests.failed },
          assertions: { total: s.assertions.total, failed: s.assertions.failed },
          scriptErrors: s.testScripts.failed,
          failures: summary.run.failures.map(
            (f) => `${f.source?.name ?? "?"}: ${f.error.test ?? f.error.name}: ${f.error.message}`,
          ),
        });
      },
    );
  });
}
