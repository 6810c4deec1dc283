import { Command, Option } from "clipanion";
import { check, formatDiagnostics } from "../../index.js";
import { resolveTarget } from "../target.js";

export class CheckCommand extends Command {
  static override paths = [["check"]];
  static override usage = Command.Usage({
    description: "Report diagnostics (file:line:col, a code frame, a hint); exit 1 on any error.",
  });

  module = Option.String("--module", { description: "Check one module folder" });
  app = Option.String("--app", { description: "Check every module folder in a folder" });
  project = Option.String("--project", { description: "Check a project folder with svc.toml" });
  target = Option.String({ required: false });

  async execute(): Promise<number> {
    const target = resolveTarget({ module: this.module, app: this.app, project: this.project, positional: this.target });
    if (typeof target === "string") {
      this.context.stderr.write(`svc check: ${target}\n`);
      return 2;
    }
    const result = check(target);
    const errors = result.diagnostics.filter((d) => d.severity === "error").length;
    const warnings = result.diagnostics.length - errors;
    if (result.diagnostics.length) this.context.stdout.write(`${formatDiagnostics(result)}\n\n`);
    this.context.stdout.write(`svc check: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}\n`);
    return errors > 0 ? 1 : 0;
  }
}
