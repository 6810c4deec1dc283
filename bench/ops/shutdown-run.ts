// SIGTERM in the middle of the load: did every request the server accepted get a complete
// answer? "Accepted" is read from the server's own log: at --log-level trace it writes a
// "request received" line (with the request id the driver chose) as each request reaches
// the handler. Every such id must come back to the driver as a whole response; requests the
// driver lost must be ones the server never accepted (refused or reset before the server
// read them, which a client may retry).
import { fork, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import type { Resources } from "../resources.js";
import { freePort, HOST } from "../server-process.js";
import type { ShutdownDriverMessage, ShutdownDriverResult, ShutdownRun } from "./protocol.js";

export interface ShutdownOptions {
  serverJs: string;
  cwd: string;
  dbFile: string;
  driverJs: string;
  workers: number;
  connections: number;
  /** Load runs this long before the SIGTERM. */
  secondsBeforeSignal: number;
}

export interface ShutdownReport {
  workers: number;
  connections: number;
  exitCode: number | null;
  /** From SIGTERM to the server's exit. */
  stopMs: number;
  /** Requests the server's handler started. */
  accepted: number;
  /** Of those, answered completely, by status. */
  answeredByStatus: Record<string, number>;
  /** Accepted but without a complete answer at the client: must be 0. */
  acceptedUnanswered: number;
  examplesUnanswered: [string, string][];
  /** Lost at the client, never accepted by the server, by reason. */
  notAcceptedByReason: Record<string, number>;
}

export async function shutdownUnderLoad(options: ShutdownOptions, resources: Resources): Promise<ShutdownReport> {
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [
      options.serverJs,
      "--listen",
      `${HOST}:${port}`,
      "--db",
      options.dbFile,
      "--workers",
      String(options.workers),
      "--log-level",
      "trace",
    ],
    { cwd: options.cwd, stdio: ["ignore", "pipe", "inherit"] },
  );
  resources.track(server);
  const accepted = new Set<string>();
  let listening: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  createInterface({ input: server.stdout }).on("line", (line) => {
    if (line.includes('"msg":"request received"')) {
      const id = /"request_id":"(ld-[^"]+)"/.exec(line)?.[1];
      if (id !== undefined) accepted.add(id);
    } else if (line.includes('"msg":"listening"')) {
      listening();
    }
  });
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
  await Promise.race([
    ready,
    exited.then((code) => Promise.reject(new Error(`server exited (${code}) before listening`))),
  ]);

  const driver = fork(options.driverJs, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  resources.track(driver);
  const result = new Promise<ShutdownDriverResult>((resolve, reject) => {
    driver.on("message", (message: ShutdownDriverMessage) => {
      if (message.type === "result") resolve(message.result);
    });
    driver.once("exit", (code) => reject(new Error(`shutdown driver exited (${code}) without a result`)));
  });
  const started = new Promise<void>((resolve) =>
    driver.on("message", (m: ShutdownDriverMessage) => m.type === "started" && resolve()),
  );
  const run: ShutdownRun = { type: "run", host: HOST, port, connections: options.connections };
  driver.send(run);
  await started;
  await sleep(options.secondsBeforeSignal * 1000);
  const signalledAt = Date.now();
  server.kill("SIGTERM");
  const exitCode = await exited;
  const stopMs = Date.now() - signalledAt;
  const outcome = await result;

  const answered = new Map(outcome.answered);
  const answeredByStatus: Record<string, number> = {};
  const unanswered: [string, string][] = [];
  const failed = new Map(outcome.failed);
  for (const id of accepted) {
    const status = answered.get(id);
    if (status === undefined) unanswered.push([id, failed.get(id) ?? "never reported by the driver"]);
    else answeredByStatus[status] = (answeredByStatus[status] ?? 0) + 1;
  }
  const notAcceptedByReason: Record<string, number> = {};
  for (const [id, reason] of outcome.failed) {
    if (!accepted.has(id)) notAcceptedByReason[reason] = (notAcceptedByReason[reason] ?? 0) + 1;
  }
  return {
    workers: options.workers,
    connections: options.connections,
    exitCode,
    stopMs,
    accepted: accepted.size,
    answeredByStatus,
    acceptedUnanswered: unanswered.length,
    examplesUnanswered: unanswered.slice(0, 5),
    notAcceptedByReason,
  };
}
