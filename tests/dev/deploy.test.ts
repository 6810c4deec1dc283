import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { DeployCommand } from "../../compiler/cli/commands/deploy.js";
import { extractTarGz, readTarGz } from "../../compiler/deploy/tar.js";
import { runCli, startChild } from "./helpers.js";
import { writeProject } from "./project.js";

const TOKEN = "deploy-token-for-the-test";
const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

interface Received {
  method: string;
  authorization: string | undefined;
  bytes: Buffer;
}

/** A deploy endpoint on 127.0.0.1 that keeps what it was sent and accepts only TOKEN. */
async function receiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        method: req.method ?? "",
        authorization: req.headers.authorization,
        bytes: Buffer.concat(chunks),
      });
      const ok = req.method === "PUT" && req.headers.authorization === `Bearer ${TOKEN}`;
      res.writeHead(ok ? 201 : 401, { "content-type": "text/plain" });
      res.end(ok ? "deployed as release 7" : "bad token");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/upload`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function deployToml(url: string): string {
  return `[project]
name = "notes"
version = "1.0.0"

[modules]
dirs = ["modules/*"]

[credentials]
deploy_token = { env = "SVC_DEV_TEST_DEPLOY_TOKEN" }

[deploy]
url = "${url}"
token = { credential = "deploy_token" }
`;
}

describe("svc deploy", () => {
  test("writes an archive that runs with only Node, outside the repository", async () => {
    const project = writeProject();
    cleanup.push(project);
    const out = join(project, "out", "notes.tar.gz");
    const run = await runCli(DeployCommand, ["deploy", "--project", project, "--out", out]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/wrote .*notes\.tar\.gz/);

    const entries = readTarGz(readFileSync(out));
    const paths = new Set(entries.map((e) => e.path));
    for (const p of [
      "server.js",
      // The SQL server.js imports, beside it.
      "sql.js",
      "package.json",
      "start.sh",
      "node_modules/svc/package.json",
      "node_modules/svc/build/runtime/index.js",
      "app/notes/page.html",
      "public/hello.txt",
    ]) {
      expect(paths).toContain(p);
    }
    expect([...paths].some((p) => /^node_modules\/better-sqlite3\/build\/Release\/[^/]+\.node$/.test(p))).toBe(true);
    // The compiler's own dependencies and the native addon's sources stay out.
    for (const p of paths)
      expect(p).not.toMatch(/^node_modules\/(ts-morph|prettier|chevrotain|typescript|clipanion)\//);
    expect([...paths].some((p) => p.startsWith("node_modules/better-sqlite3/deps/"))).toBe(false);
    // svc dev's live reload and overlay are the compiler's; a deployed server never serves them.
    expect([...paths].some((p) => p.startsWith("node_modules/svc/build/runtime/dev/"))).toBe(false);
    expect(paths.has("node_modules/svc/templates/dev/client.js")).toBe(false);
    // public/ once, from the build.
    expect(entries.filter((e) => e.path === "public/hello.txt")).toHaveLength(1);
    expect(JSON.parse(entries.find((e) => e.path === "package.json")!.data!.toString()).type).toBe("module");

    const dir = mkdtempSync(join(tmpdir(), "svc-deploy-"));
    cleanup.push(dir);
    extractTarGz(readFileSync(out), dir);
    expect(statSync(join(dir, "start.sh")).mode & 0o111).not.toBe(0);
    const { child, match } = await startChild(
      ["server.js", "--listen", "127.0.0.1:0", "--db", ":memory:", "--workers", "1"],
      dir,
      /"listening","address":"([^"]+)"/,
    );
    try {
      const base = `http://${match[1]}`;
      const added = await fetch(`${base}/api/notes:add_note`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ body: "from the archive" }),
      });
      expect(added.status).toBe(200);
      const listed = (await (await fetch(`${base}/api/notes:list_notes`)).json()) as {
        ok: boolean;
        data: { body: string }[];
      };
      expect(listed).toMatchObject({ ok: true, data: [{ body: "from the archive", tag: "v1" }] });
      const page = await fetch(`${base}/notes`);
      expect(await page.text()).toContain("<li>from the archive</li>");
      // public/ is read from beside server.js, as extracted, with an ETag made from its bytes.
      const hello = await fetch(`${base}/hello.txt`);
      expect(hello.status).toBe(200);
      expect(await hello.text()).toBe("hello\n");
      const again = await fetch(`${base}/hello.txt`, { headers: { "if-none-match": hello.headers.get("etag")! } });
      expect(again.status).toBe(304);
    } finally {
      await child.stop();
    }
  }, 90_000);

  test("uploads the same archive with a PUT and the Bearer token, and reports the answer", async () => {
    const endpoint = await receiver();
    const project = writeProject({ "svc.toml": deployToml(endpoint.url) });
    cleanup.push(project);
    const out = join(project, "notes.tar.gz");
    process.env.SVC_DEV_TEST_DEPLOY_TOKEN = TOKEN;
    try {
      const run = await runCli(DeployCommand, ["deploy", "--project", project, "--out", out]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`uploaded to ${endpoint.url}: HTTP 201: deployed as release 7`);
      expect(endpoint.received).toHaveLength(1);
      expect(endpoint.received[0].method).toBe("PUT");
      expect(endpoint.received[0].authorization).toBe(`Bearer ${TOKEN}`);
      expect(endpoint.received[0].bytes.equals(readFileSync(out))).toBe(true);

      process.env.SVC_DEV_TEST_DEPLOY_TOKEN = "a-wrong-token";
      const refused = await runCli(DeployCommand, ["deploy", "--project", project, "--out", out]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`upload to ${endpoint.url} failed: HTTP 401: bad token`);
      expect(endpoint.received).toHaveLength(2);

      delete process.env.SVC_DEV_TEST_DEPLOY_TOKEN;
      const missing = await runCli(DeployCommand, ["deploy", "--project", project, "--out", out]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("SVC_DEV_TEST_DEPLOY_TOKEN is not set");
      expect(endpoint.received).toHaveLength(2);
    } finally {
      delete process.env.SVC_DEV_TEST_DEPLOY_TOKEN;
      await endpoint.close();
    }
  }, 90_000);

  test("an unreachable endpoint fails the command", async () => {
    const endpoint = await receiver();
    await endpoint.close();
    const project = writeProject({ "svc.toml": deployToml(endpoint.url) });
    cleanup.push(project);
    process.env.SVC_DEV_TEST_DEPLOY_TOKEN = TOKEN;
    try {
      const run = await runCli(DeployCommand, ["deploy", "--project", project, "--out", join(project, "a.tar.gz")]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`upload to ${endpoint.url} failed`);
    } finally {
      delete process.env.SVC_DEV_TEST_DEPLOY_TOKEN;
    }
  }, 90_000);
});
