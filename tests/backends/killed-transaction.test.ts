// A transaction's connection cut or killed under it (compiler/tools/patch-deps.mjs): postgres.js
// 3.4.9 as published sends its ROLLBACK on the dead connection from a setImmediate that
// throws where nothing can catch it, and the server exits. The transaction must fail with
// an answer (503-class), the process must live on, and the next statement must succeed.

import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { repoRoot } from "../support/paths.js";
import { type Namespace, SERVER_URLS, backendAvailable, createNamespace } from "./support/databases.js";

const ok = await backendAvailable("postgres");

(ok ? describe : describe.skip)("postgres: a transaction whose backend is terminated", () => {
  let ns: Namespace;
  beforeAll(async () => {
    ns = await createNamespace("postgres", "killed");
  });
  afterAll(() => ns?.drop());

  test("fails with a 503, cut or terminated, and the process goes on serving", async () => {
    const script = join(repoRoot, "build", "tests", "backends", "support", "killed-transaction.js");
    const child = spawn(process.execPath, [script, ns.url, SERVER_URLS.postgres], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect({ code, err }).toEqual({ code: 0, err: "" });
    expect(JSON.parse(out.trim())).toEqual({ failed: [503, 503, 503, 503, 503, 503], after: 1 });
  }, 30_000);
});
