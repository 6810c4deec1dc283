// A generated server run as its own process (real signals, real SQLite) whose database holds
// one job's transaction open until the test says so: a statement of a transaction whose
// arguments include one of GATE_N (numbers, comma-separated) prints `{"gate":"held"}` and waits for a line `release` on stdin.
// It is how jobs-shutdown.test.ts has a job running, for as long as it likes, when it sends
// SIGTERM. Usage: node gated-server.js <dir>/server.js [server flags…]

import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { openDatabase } from "../../../runtime/db/index.js";
import { main } from "../../../runtime/start/main.js";
import type { Database, Executor, ServerSpec } from "../../../runtime/contract/index.js";

const gateN = new Set((process.env.GATE_N ?? "").split(",").map(Number));
const grace = Number(process.env.GRACE_MS ?? "30000");

let open!: () => void;
const released = new Promise<void>((resolve) => (open = resolve));
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "release") open();
});

/** `tx` with every statement first waiting at the gate when its arguments hold GATE_N. */
function gatedExecutor(tx: Executor): Executor {
  const wait = async (args: readonly unknown[]): Promise<void> => {
    const n = args.find((a) => gateN.has(a as number));
    if (n === undefined) return;
    process.stdout.write(`${JSON.stringify({ gate: "held", n })}\n`);
    await released;
  };
  return {
    all: async (stmt, args) => (await wait(args), tx.all(stmt, args)),
    one: async (stmt, args) => (await wait(args), tx.one(stmt, args)),
    run: async (stmt, args) => (await wait(args), tx.run(stmt, args)),
  };
}

function gated(db: Database): Database {
  return new Proxy(db, {
    get(target, key) {
      if (key === "transaction") {
        return (fn: (tx: Executor) => unknown, options?: Parameters<Database["transaction"]>[1]) =>
          target.transaction((tx) => fn(gatedExecutor(tx)) as never, options);
      }
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const [serverJs, ...argv] = process.argv.slice(2);
const { spec } = (await import(pathToFileURL(serverJs).href)) as { spec: ServerSpec };
await main(spec, argv, { openDatabase: async (o) => gated(await openDatabase(o)), shutdownGraceMs: grace });
