import { join, relative } from "node:path";
import { Command, Option } from "clipanion";
import { schemaSummary } from "../schema-summary.js";
import { resolveTarget } from "../target.js";

export class BuildCommand extends Command {
  static override paths = [["build"]];
  static override usage = Command.Usage({
    description: "Generate dist/server.ts with its SQL in dist/sql.ts, and their JavaScript, from a module, an app or a project.",
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
    const { build, formatDiagnostics, writeOutputFiles } = await import("../../index.js");
    const result = await build(target);
    if (result.diagnostics.length) this.context.stderr.write(`${formatDiagnostics(result)}\n`);
    if (result.files.length === 0) {
      const errors = result.diagnostics.filter((d) => d.severity === "error").length;
      this.context.stderr.write(`svc build: ${errors} error${errors === 1 ? "" : "s"}; nothing written\n`);
      return 1;
    }
    writeOutputFiles(this.out, result.files);
    // public/ may hold hundreds of files: they are counted, not listed.
    const own = result.files.filter((f) => !f.path.startsWith("public/"));
    const publics = result.files.length - own.length;
    const listed = own.map((f) => relative(".", join(this.out, f.path))).join(", ");
    const more = publics === 0 ? "" : ` and ${publics} file${publics === 1 ? "" : "s"} of ${relative(".", join(this.out, "public"))}/`;
    this.context.stdout.write(`svc build: wrote ${listed}${more}\n`);
    if (result.model) for (const line of schemaSummary(result.model)) this.context.stdout.write(`${line}\n`);
    return 0;
  }
}
