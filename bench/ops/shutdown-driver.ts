// Load driver for the shutdown-under-load run (ops-load.ts): a separate process, like
// driver.ts, but it keeps every request's fate, which autocannon does not. N virtual users,
// each on its own keep-alive connection, send requests one after another, each with a
// unique X-Request-Id, alternating list_tasks and create_task, until the server stops
// taking connections. A request counts as answered only when its whole body (as many
// bytes as Content-Length says) arrived.
import { Agent, request } from "node:http";
import type { ShutdownDriverMessage, ShutdownDriverResult, ShutdownRun } from "./protocol.js";

if (!process.send) {
  console.error("shutdown-driver.js is started by build/bench/ops-load.js with an IPC channel");
  process.exit(2);
}

function send(message: ShutdownDriverMessage): Promise<void> {
  return new Promise((resolve) => process.send?.(message, undefined, {}, () => resolve()));
}

type Outcome = { id: string; status: number } | { id: string; error: string };

function once(agent: Agent, run: ShutdownRun, id: string, create: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const body = create ? '{"title":"shutdown under load","priority":"low"}' : undefined;
    const req = request(
      {
        agent,
        host: run.host,
        port: run.port,
        method: create ? "POST" : "GET",
        path: create ? "/api/task_tracker:create_task" : "/api/task_tracker:list_tasks?limit=20",
        headers: {
          "X-Request-Id": id,
          ...(body === undefined
            ? {}
            : { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) }),
        },
      },
      (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.on("end", () => {
          const expected = Number(res.headers["content-length"]);
          if (!res.complete || (Number.isFinite(expected) && bytes !== expected)) {
            resolve({ id, error: `incomplete body: ${bytes} of ${res.headers["content-length"]} bytes` });
          } else {
            resolve({ id, status: res.statusCode ?? 0 });
          }
        });
        res.on("error", (err) => resolve({ id, error: `response: ${err.message}` }));
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) => resolve({ id, error: err.code ?? err.message }));
    req.end(body);
  });
}

async function user(agent: Agent, run: ShutdownRun, n: number, outcomes: Outcome[]): Promise<void> {
  for (let seq = 0; ; seq++) {
    const outcome = await once(agent, run, `ld-${n}-${seq}`, seq % 2 === 1);
    outcomes.push(outcome);
    // Refused: the server no longer listens; this user is done.
    if ("error" in outcome && outcome.error === "ECONNREFUSED") return;
  }
}

process.on("message", (message: ShutdownRun) => {
  if (message.type !== "run") return;
  const agent = new Agent({ keepAlive: true, maxSockets: message.connections });
  const outcomes: Outcome[] = [];
  void send({ type: "started" });
  void Promise.all(Array.from({ length: message.connections }, (_, n) => user(agent, message, n, outcomes))).then(
    async () => {
      const result: ShutdownDriverResult = {
        answered: outcomes.flatMap((o) => ("status" in o ? [[o.id, o.status] as [string, number]] : [])),
        failed: outcomes.flatMap((o) => ("error" in o ? [[o.id, o.error] as [string, string]] : [])),
      };
      await send({ type: "result", result });
      agent.destroy();
      process.disconnect();
    },
  );
});

process.on("disconnect", () => process.exit(0));
