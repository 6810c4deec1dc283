#!/usr/bin/env node
// `svc-server TARGET [server flags]`: build in memory and serve, with nothing written to disk.

import { build, formatDiagnostics } from "../index.js";
import { importSpec } from "../dev/generation.js";
import { resolveTarget } from "./target.js";

const TARGET_FLAGS = new Set(["--module", "--app", "--project"]);

async function run(argv: string[]): Promise<void> {
  const flags: { module?: string; app?: string; project?: string; positional?: string } = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (TARGET_FLAGS.has(a)) flags[a.slice(2) as "module" | "app" | "project"] = argv[++i];
    else if (!a.startsWith("-") && flags.positional === undefined && rest.length === 0) flags.positional = a;
    else rest.push(a);
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write("usage: svc-server [--module DIR | --app DIR | --project DIR | DIR] [server flags]\n");
  }
  const target = resolveTarget(flags);
  if (typeof target === "string") {
    process.stderr.write(`svc-server: ${target}\n`);
    process.exit(2);
  }
  const runtimeUrl = new URL("../../runtime/index.js", import.meta.url).href;
  // Nothing is written, so nothing needs formatting.
  const result = await build(target, { runtimeImport: runtimeUrl, pretty: false });
  if (result.diagnostics.length) process.stderr.write(`${formatDiagnostics(result)}\n`);
  const js = result.files.find((f) => f.path === "server.js");
  if (!js) {
    process.stderr.write("svc-server: the project has errors; not serving\n");
    process.exit(1);
  }
  // The generated module imports the runtime by absolute file URL, so a data: URL can hold it.
  const spec = await importSpec(result.files, result.root);
  const rt = (await import(runtimeUrl)) as typeof import("../../runtime/index.js");
  await rt.main(spec, rest);
}

void run(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`svc-server: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
