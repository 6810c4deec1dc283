import { describe, test, expect, beforeAll, afterAll } from "../../support/jest.js";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer as createNetServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { StartupError } from "../../../runtime/core/errors.js";
import { start, type RunningServer } from "../../../runtime/start/main.js";
import type { ServerSpec, StatementSpec, TableSpec } from "../../../runtime/contract/index.js";
import { endpoint, MemoryDatabase, route, spec } from "./helpers.js";

const tables: TableSpec[] = [{ name: "task", ddl: {} }];
const statements: StatementSpec[] = [{ name: "task.get", sql: { sqlite: { text: "SELECT 1", slots: [] } } }];

/** A gate the slow endpoint waits on, so a test can hold a request in flight. */
let releaseSlow: () => void = () => undefined;
/** Called when the slow endpoint's handler has begun: the request is in flight on the server. */
let slowStarted: () => void = () => undefined;

const testSpec: ServerSpec = spec({
  tables,
  statements,
  routes: [
    route("GET", "/api/t:hello", endpoint("t.hello", "query", async () => "hi")),
    route("GET", "/api/t:slow", endpoint(
        "t.slow",
        "query",
        () =>
          new Promise((done) => {
            releaseSlow = () => done("finally");
            slowStarted();
          }),
      ),
    ),
  ],
});

function startTest(
  db: MemoryDatabase,
  argv: string[] = ["--listen", "127.0.0.1:0"],
): { running: Promise<RunningServer>; lines: () => Record<string, unknown>[] } {
  let text = "";
  const running = start(testSpec, argv, {
    openDatabase: async () => db,
    env: {},
    handleSignals: false,
    logSink: (c) => (text += c),
  });
  return {
    running,
    lines: () =>
      text
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe("start", () => {
  test("migrates, prepares, listens, logs the address, serves, and closes the database on close", async () => {
    const db = new MemoryDatabase();
    const { running, lines } = startTest(db);
    const server = await running;
    // The spec's, and no table of svc's own: this spec has no [auth.jwt].
    expect(db.migrated).toEqual(tables);
    expect(db.prepared).toEqual(statements);
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    const res = await request(`http://${server.address}/api/t:hello`);
    expect(await res.body.json()).toEqual({ ok: true, data: "hi" });
    await server.close();
    expect(db.closed).toBe(true);
    expect(server.server.listening).toBe(false);
    server.log.flush();
    const msgs = lines().map((l) => l.msg);
    expect(lines().find((l) => l.msg === "listening")).toMatchObject({ level: "info", address: server.address });
    expect(msgs).toContain("request");
    expect(msgs[msgs.length - 1]).toBe("stopped");
  });

  test("close lets an in-flight request finish, refuses new connections, and drops idle keep-alive ones", async () => {
    const db = new MemoryDatabase();
    const server = await startTest(db).running;
    const base = `http://${server.address}`;
    // A kept-alive idle connection, on a raw socket so the test sees when the server drops it.
    const idle = connect(server.port, "127.0.0.1");
    const idleClosed = new Promise<void>((done) => idle.once("close", () => done()));
    let idleText = "";
    idle.setEncoding("utf8");
    const answered = new Promise<void>((done) =>
      idle.on("data", (chunk: string) => {
        idleText += chunk;
        if (idleText.includes('"data":"hi"')) done();
      }),
    );
    idle.on("error", () => undefined);
    idle.write(`GET /api/t:hello HTTP/1.1\r\nHost: ${server.address}\r\n\r\n`);
    await answered;
    expect(idleText).toMatch(/^HTTP\/1\.1 200/);
    expect(idleText.toLowerCase()).toContain("connection: keep-alive");
    // The slow request is in flight once its handler has begun (an event, not a sleep).
    const agent = new Agent();
    const began = new Promise<void>((done) => (slowStarted = done));
    const inFlight = request(`${base}/api/t:slow`, { dispatcher: agent });
    await began;
    const closed = server.close();
    let closeDone = false;
    void closed.then(() => (closeDone = true));
    // close() has stopped accepting once the server no longer listens.
    while (server.server.listening) await new Promise((r) => setImmediate(r));
    // A new connection is refused.
    await expect(request(`${base}/api/t:hello`, { dispatcher: new Agent() })).rejects.toThrow();
    // The idle keep-alive connection is dropped while the slow request is still held: the
    // shutdown does not wait on it, and the database stays open for the request in flight.
    await idleClosed;
    expect(idle.destroyed).toBe(true);
    expect(closeDone).toBe(false);
    expect(db.closed).toBe(false);
    releaseSlow();
    const res = await inFlight;
    expect(res.statusCode).toBe(200);
    expect(res.headers.connection).toBe("close");
    expect(await res.body.json()).toEqual({ ok: true, data: "finally" });
    // Nothing else holds the shutdown: it resolves once the in-flight request is answered.
    await closed;
    expect(db.closed).toBe(true);
    await agent.close();
  });

  test("without a database hook it opens --db through db/index.js", async () => {
    const server = await start(spec({}), ["--listen", "127.0.0.1:0", "--db", ":memory:", "--log-level", "error"], {
      env: {},
      handleSignals: false,
    });
    try {
      expect(server.db.dialect).toBe("sqlite");
      const res = await request(`http://${server.address}/health`);
      expect(await res.body.json()).toMatchObject({ status: "ok" });
    } finally {
      await server.close();
    }
  });

  test("a bad flag is a StartupError and the database is never opened", async () => {
    const db = new MemoryDatabase();
    await expect(startTest(db, ["--log-level", "loud"]).running).rejects.toThrow(StartupError);
    await expect(startTest(db, ["--log-level", "loud"]).running).rejects.toMatchObject({ code: "SVC_ERR_OPTION" });
    expect(db.migrated).toBeNull();
  });

  test("a failed migration closes the database and stops the start", async () => {
    const db = new MemoryDatabase();
    db.migrate = async () => {
      throw new StartupError("SVC_ERR_MIGRATION", 'table "task": column "title" was dropped');
    };
    await expect(startTest(db).running).rejects.toThrow('column "title" was dropped');
    expect(db.closed).toBe(true);
  });

  test("a port in use is a StartupError naming the address", async () => {
    const blocker = createNetServer();
    await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const db = new MemoryDatabase();
      await expect(startTest(db, ["--listen", `127.0.0.1:${port}`]).running).rejects.toThrow(
        `cannot listen on 127.0.0.1:${port}: the address is in use`,
      );
      expect(db.closed).toBe(true);
    } finally {
      blocker.close();
    }
  });
});

describe("main as a process", () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-runtime-main-"));
    const mainUrl = new URL("../../../runtime/start/main.js", import.meta.url).href;
    writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
    writeFileSync(
      join(dir, "server.js"),
      `import { main, isEntry } from ${JSON.stringify(mainUrl)};
const db = {
  dialect: "sqlite",
  async all() { return []; }, async one() { return null; }, async run() { return 0; },
  async migrate() {}, prepare() {}, async transaction(fn) { return fn(this); }, async ping() {},
  async close() { process.stdout.write("db closed\\n"); },
};
const spec = { name: "demo", version: "0.0.1", tables: [], statements: [], routes: [], defaults: {} };
process.stdout.write("entry " + isEntry(import.meta.url) + "\\n");
if (isEntry(import.meta.url)) {
  const running = await main(spec, process.argv.slice(2), { openDatabase: async () => db });
  process.stdout.write("ready " + running.port + "\\n");
}
`,
    );
    writeFileSync(join(dir, "importer.js"), 'import "./server.js";\nprocess.stdout.write("imported\\n");\n');
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function run(
    script: string,
    args: string[],
    onStdout?: (text: string, kill: (s: NodeJS.Signals) => void) => void,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((done, fail) => {
      const child = spawn(process.execPath, [join(dir, script), ...args], {
        cwd: dir,
        env: { ...process.env, SVC_LISTEN: "" },
      });
      let stdout = "";
      let stderr = "";
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        fail(new Error(`child did not exit: ${stdout} ${stderr}`));
      }, 15000);
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
        onStdout?.(stdout, (s) => child.kill(s));
      });
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      // "close", not "exit": only then has everything the child wrote been read.
      child.on("close", (code) => {
        clearTimeout(timer);
        done({ code, stdout, stderr });
      });
    });
  }

  test("a StartupError prints its message without a stack and exits 1", async () => {
    const { code, stderr } = await run("server.js", ["--listen", "127.0.0.1:99999"]);
    expect(code).toBe(1);
    expect(stderr).toBe('demo: --listen: port "99999" is not a number from 0 to 65535 [SVC_ERR_OPTION]\n');
  });

  test("--help prints the flags and exits 0", async () => {
    const { code, stdout } = await run("server.js", ["--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: demo [flags]");
    expect(stdout).toContain("--max-body-size <bytes>");
  });

  test.each(["SIGTERM", "SIGINT"] as const)("%s shuts down gracefully: database closed, exit 0", async (signal) => {
    let sent = false;
    const { code, stdout } = await run("server.js", ["--listen", "127.0.0.1:0"], (out, kill) => {
      if (!sent && out.includes('"msg":"listening"')) {
        sent = true;
        kill(signal);
      }
    });
    expect(code).toBe(0);
    expect(stdout).toContain('"msg":"listening"');
    expect(stdout).toContain(`"signal":"${signal}"`);
    expect(stdout).toContain("db closed");
    expect(stdout).toContain('"msg":"stopped"');
  });

  test("isEntry is true for the script node runs, with or without its extension, and false when imported", async () => {
    expect((await run("server.js", ["--help"])).stdout).toContain("entry true");
    expect((await run("server", ["--help"])).stdout).toContain("entry true");
    const imported = await run("importer.js", []);
    expect(imported.stdout).toBe("entry false\nimported\n");
    expect(imported.code).toBe(0);
  });
});
