import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Command, Option } from "clipanion";
import { readConfig } from "../../project/config.js";
import { deployArchive } from "../../deploy/archive.js";
import { upload, uploadTarget } from "../../deploy/upload.js";

export class DeployCommand extends Command {
  static override paths = [["deploy"]];
  static override usage = Command.Usage({
    description: "Package the project as one self-contained archive, and upload it where svc.toml's [deploy] says.",
    details: `
      The archive (a .tar.gz) holds the generated server, the runtime, the production dependencies it
      needs (native ones as built on this machine), the project's pages and public/, and start.sh.
      Unpacked on a machine with Node, \`node server.js [server flags]\` serves the project.

      With \`[deploy] url\` and \`token = { credential = "…" }\` in svc.toml, the same archive is sent
      there in an HTTP PUT with the token as a Bearer header; a failed upload exits 1.
    `,
    examples: [["Package the example project", "svc deploy --project examples/task_tracker --out dist/app.tar.gz"]],
  });

  project = Option.String("--project", ".", { description: "The project folder, with svc.toml (default: .)" });
  out = Option.String("--out", { description: "Archive path (default: dist/<name>-<version>.tar.gz in the project)" });

  async execute(): Promise<number> {
    const { stdout, stderr } = this.context;
    const root = resolve(this.project);
    if (!existsSync(join(root, "svc.toml"))) {
      stderr.write(
        `svc deploy: ${relative(".", root) || "."} has no svc.toml; deploy packages a project (--project DIR)\n`,
      );
      return 2;
    }
    const { build, formatDiagnostics } = await import("../../index.js");
    const result = await build({ mode: "project", dir: root });
    if (result.diagnostics.length) stderr.write(`${formatDiagnostics(result)}\n`);
    if (result.model === null || result.files.length === 0) {
      stderr.write("svc deploy: the project has errors; nothing packaged\n");
      return 1;
    }
    const model = result.model;
    let target;
    try {
      target = uploadTarget(readConfig("svc.toml", readFileSync(join(root, "svc.toml"), "utf8")).config);
    } catch (err) {
      stderr.write(`svc deploy: cannot upload: ${message(err)}\n`);
      return 1;
    }

    let archive: { bytes: Buffer; packages: string[] };
    try {
      archive = deployArchive(result);
    } catch (err) {
      stderr.write(`svc deploy: cannot package: ${message(err)}\n`);
      return 1;
    }
    const out = this.out ?? join(root, "dist", `${model.name}-${model.version}.tar.gz`);
    mkdirSync(dirname(resolve(out)), { recursive: true });
    writeFileSync(out, archive.bytes);
    stdout.write(
      `svc deploy: wrote ${relative(".", resolve(out))} (${kib(archive.bytes.length)}; runtime dependencies: ${archive.packages.join(", ")})\n`,
    );
    if (target === null) return 0;

    try {
      const answer = await upload(target, archive.bytes);
      const body = answer.body.trim();
      if (!answer.ok) {
        stderr.write(`svc deploy: upload to ${target.url} failed: HTTP ${answer.status}${body ? `: ${body}` : ""}\n`);
        return 1;
      }
      stdout.write(`svc deploy: uploaded to ${target.url}: HTTP ${answer.status}${body ? `: ${body}` : ""}\n`);
      return 0;
    } catch (err) {
      stderr.write(`svc deploy: upload to ${target.url} failed: ${message(err)}\n`);
      return 1;
    }
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function kib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
