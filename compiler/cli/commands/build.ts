import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { Command, Option } from "clipanion";
import { build, formatDiagnostics } from "../../index.js";
import { resolveTarget } from "../target.js";

export class BuildCommand extends Command {
  static override paths = [["build"]];
  static override usage = Command.Usage({
    description: "Generate dist/server.ts and dist/server.js from a module, an app or a project.",
    examples: [["Build the example project", "svc build --project examples/task_tracker --out dist"]],
  });

  module = Option.String("--module", { description: "Serve one module folder" });
  app = Option.String("--app", { description: "Serve every module folder in a folder" });
  project = Option.String("--project", { description: "A project folder with svc.toml" });
  out = Option.String("--out", "dist", { description: "Output folder (default: dist)" });
  target = Option.String({ required: false });

  async execute(): Promise<number> {
    const target = resolveTarget({ module: this.module, app: this.app, project: this.project, positional: this.target });
    if (typeof target === "string") {
      this.context.stderr.write(`svc build: ${target}\n`);
      return 2;
    }
    const result = await build(target);
    if (result.diagnostics.length) this.context.stderr.write(`${formatDiagnostics(result)}\n`);
    if (result.files.length === 0) {
      const errors = result.diagnostics.filter((d) => d.severity === "error").length;
      this.context.stderr.write(`svc build: ${errors} error${errors === 1 ? "" : "s"}; nothing written\n`);
      return 1;
    }
    for (const f of result.files) {
      const path = join(this.out, f.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, f.contents);
    }
    this.context.stdout.write(`svc build: wrote ${result.files.map((f) => relative(".", join(this.out, f.path))).join(", ")}\n`);
    return 0;
  }
}
