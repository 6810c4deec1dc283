import { Command, Option } from "clipanion";
import { LOG_LEVELS } from "../../../runtime/core/log.js";
import type { LogLevel } from "../../../runtime/contract/index.js";
import type { DevServer } from "../../dev/server.js";
import { resolveTarget } from "../target.js";

export class DevCommand extends Command {
  static override paths = [["dev"]];
  static override usage = Command.Usage({
    description: "Serve the project with an in-memory database, rebuilding and swapping it in on every save.",
    details: `
      Watches module files, route files, pages, the layout, public/ and svc.toml. A save rebuilds in
      this process and swaps the new version in without dropping connections; the in-memory data
      is kept when the schema change is additive. While a change does not build, the last good
      version keeps serving: pages show the diagnostics in an overlay and API calls get a 500.
      Open pages reload by themselves after each swap.
    `,
    examples: [
      ["Develop the example project", "svc dev examples/task_tracker"],
      ["On any free port", "svc dev --port 0"],
    ],
  });

  module = Option.String("--module", { description: "Serve one module folder" });
  app = Option.String("--app", { description: "Serve every module folder in a folder" });
  project = Option.String("--project", { description: "A project folder with svc.toml" });
  port = Option.String("--port", "3000", { description: "Port on localhost (default 3000; 0 picks a free one)" });
  host = Option.String("--host", "127.0.0.1", { description: "Address to listen on (default 127.0.0.1)" });
  logLevel = Option.String("--log-level", { description: "error|warn|info|debug|trace (default info)" });
  target = Option.String({ required: false });

  async execute(): Promise<number> {
    const { stdout, stderr } = this.context;
    const target = resolveTarget({
      module: this.module,
      app: this.app,
      project: this.project,
      positional: this.target,
    });
    if (typeof target === "string") {
      stderr.write(`svc dev: ${target}\n`);
      return 2;
    }
    const port = Number(this.port);
    if (!/^\d+$/.test(this.port) || port > 65535) {
      stderr.write(`svc dev: --port must be a number from 0 to 65535, not "${this.port}"\n`);
      return 2;
    }
    if (this.logLevel !== undefined && !(LOG_LEVELS as readonly string[]).includes(this.logLevel)) {
      stderr.write(`svc dev: --log-level must be one of ${LOG_LEVELS.join(", ")}, not "${this.logLevel}"\n`);
      return 2;
    }
    let dev: DevServer;
    try {
      const { DevServer } = await import("../../dev/server.js");
      dev = await DevServer.start({
        target,
        port,
        host: this.host,
        ...(this.logLevel !== undefined ? { logLevel: this.logLevel as LogLevel } : {}),
        say: (line) => stdout.write(`${line}\n`),
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why =
        code === "EADDRINUSE"
          ? `port ${port} is in use (try --port 0)`
          : err instanceof Error
            ? err.message
            : String(err);
      stderr.write(`svc dev: cannot start: ${why}\n`);
      return 1;
    }
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        resolve();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    stdout.write("svc dev: stopping\n");
    await dev.close();
    return 0;
  }
}
