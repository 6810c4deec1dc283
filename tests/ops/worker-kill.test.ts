// A worker killed under load leaves no connection hanging (issue 15 part 3): every
// connection a client opened is answered or closed within the read timeout, while a
// replacement starts. Each connection carries one request and asks for Connection: close,
// so "answered" and "closed" are both visible on the socket.

import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { removeDir, startServer } from "../support/server.js";
import { buildServer, logLines, postJson, raw, request, waitForLog, type RawAnswer } from "./support.js";

const READ_TIMEOUT_MS = 2000;
/** Past the read timeout, a connection with neither an answer nor a close is hanging. */
const WAIT_MS = READ_TIMEOUT_MS + 3000;
const CLIENTS = 16;
const KILLS = 3;

let dir: string;

beforeAll(async () => {
  dir = await buildServer();
});

afterAll(() => removeDir(dir));

interface Tally {
  opened: number;
  answered: number;
  closed: number;
  hanging: RawAnswer[];
  /** Answers per serving process (the request id's prefix is drawn once per process). */
  byProcess: Map<string, number>;
}

function note(tally: Tally, answer: RawAnswer): void {
  tally.opened++;
  if (answer.status !== 0) {
    tally.answered++;
    const prefix = (answer.headers["x-request-id"] ?? "").split("-")[0];
    tally.byProcess.set(prefix, (tally.byProcess.get(prefix) ?? 0) + 1);
  }
  else if (answer.closed) tally.closed++;
  else tally.hanging.push(answer);
}

test("SIGKILL of a worker under load: every connection is answered or closed within the read timeout", async () => {
  const server = await startServer(dir, [
    "--db",
    join(dir, "kill.db"),
    "--workers",
    "2",
    "--read-timeout",
    String(READ_TIMEOUT_MS),
  ]);
  const tally: Tally = { opened: 0, answered: 0, closed: 0, hanging: [], byProcess: new Map() };
  try {
    let running = true;
    // Each client opens one connection after another: a write, then a read, alternately.
    const client = async (n: number): Promise<void> => {
      for (let i = 0; running && i < 2000; i++) {
        const bytes =
          (n + i) % 2 === 0
            ? postJson("/api/task_tracker:create_task", JSON.stringify({ title: `t${n}-${i}` }), {
                Connection: "close",
              })
            : request("GET", "/api/task_tracker:list_tasks?limit=50", { Connection: "close" });
        note(tally, await raw(server.port, bytes, WAIT_MS));
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
    for (let k = 0; k < KILLS; k++) {
      await sleep(400);
      const mark = server.output.length;
      const workers = logLines(server).filter((l) => l.msg === "worker started");
      const died = new Set(logLines(server).filter((l) => l.msg.startsWith("worker died")).map((l) => l.pid));
      const victim = workers.map((l) => l.pid as number).find((pid) => !died.has(pid))!;
      process.kill(victim, "SIGKILL");
      await waitForLog(server, (l) => l.msg === "worker started", 15_000, mark);
    }
    await sleep(400);
    running = false;
    await Promise.all(clients);
    console.log(
      `worker kills: ${KILLS}; connections opened ${tally.opened}, answered ${tally.answered}, ` +
        `closed unanswered ${tally.closed}, hanging ${tally.hanging.length}; ` +
        `answers per process ${[...tally.byProcess.values()].join(", ")}`,
    );
    expect(tally.hanging).toEqual([]);
    expect(tally.answered).toBeGreaterThan(tally.opened / 2);
  } finally {
    expect(await server.stop()).toBe(0);
  }
}, 60_000);
