import { readFileSync, writeFileSync } from "node:fs";
import { Command, Option } from "clipanion";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { renderDiagnostics } from "../../diagnostics/render.js";
import { svcFiles } from "../../fmt/files.js";
import type * as Formatter from "../../fmt/index.js";

export class FmtCommand extends Command {
  static override paths = [["fmt"]];
  static override usage = Command.Usage({
    description: "Lay out .svc files the one svc way (docs/language.md §7, Layout).",
    details: `
      Formats the files given and every .svc file below the folders given (the current folder when none is), in
      place. A route.svc file is read as a route file, any other as a module file. A file that does not parse is
      reported and left as it is (exit 2).
    `,
    examples: [
      ["Format a project", "svc fmt examples/conduit"],
      ["Fail in CI when a file is not formatted", "svc fmt --check ."],
      ["Format what an editor pipes in", "svc fmt --stdin app/api/items/route.svc < app/api/items/route.svc"],
    ],
  });

  check = Option.Boolean("--check", false, {
    description: "Write nothing; list the files that would change and exit 1 if there are any",
  });
  stdin = Option.Boolean("--stdin", false, {
    description: "Format standard input to standard output; a path given names it (route.svc or a module file)",
  });
  files = Option.Rest();

  /** Loaded by execute, not at the CLI's start: the formatter brings the parser with it. */
  private formatter!: typeof Formatter;

  async execute(): Promise<number> {
    this.formatter = await import("../../fmt/index.js");
    if (this.stdin) return this.formatStdin();
    let targets: string[];
    try {
      targets = svcFiles(this.files.length ? this.files : ["."]);
    } catch (e) {
      this.context.stderr.write(`svc fmt: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
    let changed = 0;
    let failed = 0;
    for (const file of targets) {
      const source = readFileSync(file, "utf8");
      const formatted = this.format(source, file);
      if (formatted === null) {
        failed++;
        continue;
      }
      if (formatted === source) continue;
      changed++;
      if (this.check) this.context.stdout.write(`${file}\n`);
      else writeFileSync(file, formatted);
    }
    const verb = this.check ? "would reformat" : "reformatted";
    const broken = failed ? `, ${failed} not parsed (left as they are)` : "";
    this.context.stderr.write(`svc fmt: ${verb} ${changed} of ${targets.length} file${targets.length === 1 ? "" : "s"}${broken}\n`);
    if (failed) return 2;
    return this.check && changed ? 1 : 0;
  }

  private async formatStdin(): Promise<number> {
    if (this.files.length > 1) {
      this.context.stderr.write("svc fmt: --stdin takes at most one path, the name of what it reads\n");
      return 2;
    }
    const file = this.files[0] ?? "<stdin>.svc";
    const chunks: Buffer[] = [];
    for await (const chunk of this.context.stdin) chunks.push(Buffer.from(chunk as Buffer));
    const source = Buffer.concat(chunks).toString("utf8");
    const formatted = this.format(source, file);
    if (formatted === null) return 2;
    if (this.check) return formatted === source ? 0 : 1;
    this.context.stdout.write(formatted);
    return 0;
  }

  /** The formatted text, or null after reporting why there is none. */
  private format(source: string, file: string): string | null {
    try {
      return this.formatter.formatSvc(source, file);
    } catch (e) {
      if (!(e instanceof this.formatter.FormatError)) throw e;
      this.report(e.diagnostics, file, source);
      return null;
    }
  }

  private report(diagnostics: Diagnostic[], file: string, source: string): void {
    this.context.stderr.write(`${renderDiagnostics(diagnostics, new Map([[file, source]]))}\n`);
  }
}
