import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { integer } from "../args.js";

export interface OpsLoadOptions {
  durationSeconds: number;
  connections: number;
  /** --workers for the soak and the shutdown runs. */
  workers: number;
  ratioSeconds: number;
  skipSoak: boolean;
  skipShutdown: boolean;
  skipRatio: boolean;
  pin: boolean;
}

export const USAGE = `usage: npm run bench:load -- [options]
  --duration S       seconds per endpoint in the soak run (default 30)
  --connections C    concurrent connections (default 100)
  --workers N        --workers for the soak and shutdown runs (default: the cores, ${availableParallelism()} here)
  --ratio-duration S seconds per measured run of --workers 1 vs 2 (default 10)
  --skip-soak, --skip-shutdown, --skip-ratio   leave a part out
  --no-pin           do not pin the load generator and the server to separate cores with taskset
  --help             this text`;

export function parseOpsLoadArgs(argv: string[]): OpsLoadOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      duration: { type: "string" },
      connections: { type: "string" },
      workers: { type: "string" },
      "ratio-duration": { type: "string" },
      "skip-soak": { type: "boolean" },
      "skip-shutdown": { type: "boolean" },
      "skip-ratio": { type: "boolean" },
      "no-pin": { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return "help";
  return {
    durationSeconds: integer("--duration", values.duration, 30, 1, 3600),
    connections: integer("--connections", values.connections, 100, 1, 10_000),
    workers: integer("--workers", values.workers, availableParallelism(), 1, 1024),
    ratioSeconds: integer("--ratio-duration", values["ratio-duration"], 10, 1, 600),
    skipSoak: values["skip-soak"] ?? false,
    skipShutdown: values["skip-shutdown"] ?? false,
    skipRatio: values["skip-ratio"] ?? false,
    pin: !(values["no-pin"] ?? false),
  };
}
