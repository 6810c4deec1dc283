// How much of the generated output a one-field change touches, and how much of server.ts is
// data rather than logic (issue 32, part 2). Builds a copy of examples/task_tracker with
// `svc build`, adds one nullable field to its resource `task`, builds again, and reports for
// each generated .ts file the changed lines and hunks of `diff -u` between the two builds;
// then, for the first build, the lines of server.ts (and of every companion) that are SQL
// data (statement specs, table specs) against the rest.
//
//   npm run bench:output            # the table on stdout
//   npm run bench:output -- --json  # the same figures as JSON

import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { benchPaths } from "./paths.js";

/** The edit: one nullable field, after the last field of `resource task`. */
const RESOURCE = "task";
const FIELD = "  review_note: text?";
const MODULE_FILE = join("modules", "task_tracker", "task_tracker.svc");

/** Types whose declarations hold SQL text and DDL rather than logic. */
const DATA_TYPES = /\brt\.(TableSpec|StatementSpec|RowLiteral)\b/;

export interface FileDiff {
  file: string;
  changedLines: number;
  hunks: number;
}

export interface Share {
  file: string;
  lines: number;
  /** Non-blank lines of SQL text and DDL: table and statement specs. */
  data: number;
  /** Of `data`, svc's own tables and statements (`svc_…`), the same in every project. */
  svcOwned: number;
}

/** Adds FIELD as the last field of `resource <name> {`. */
export function addField(source: string, resource: string, field: string): string {
  const lines = source.split("\n");
  const start = lines.findIndex((l) => l.trim() === `resource ${resource} {`);
  if (start < 0) throw new Error(`no \`resource ${resource} {\` line`);
  let last = start;
  for (let i = start + 1; i < lines.length && lines[i].trim() !== "}"; i++) {
    if (/^\s+\w+\s*:/.test(lines[i])) last = i;
  }
  lines.splice(last + 1, 0, field);
  return lines.join("\n");
}

/** Changed lines (`+`/`-`, headers aside) and hunks of `diff -u a b`; a missing side counts as empty. */
export function diffFiles(a: string, b: string): { changedLines: number; hunks: number } {
  const args = ["-u", existsSync(a) ? a : "/dev/null", existsSync(b) ? b : "/dev/null"];
  const out = spawnSync("diff", args, { encoding: "utf8" }).stdout;
  let changedLines = 0;
  let hunks = 0;
  for (const line of out.split("\n")) {
    if (line.startsWith("+++") || line.startsWith("---")) continue;
    if (line.startsWith("@@")) hunks++;
    else if (line.startsWith("+") || line.startsWith("-")) changedLines++;
  }
  return { changedLines, hunks };
}

/** Lines of `text` that are data: top-level declarations typed as table or statement specs. */
export function shareOf(file: string, text: string): Share {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const nonBlank = (from: number, to: number) =>
    text
      .slice(from, to)
      .split("\n")
      .filter((l) => l.trim() !== "").length;
  let data = 0;
  let svcOwned = 0;
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const declaration = statement.declarationList.declarations[0];
    const type = declaration?.type?.getText(source) ?? "";
    if (!DATA_TYPES.test(type)) continue;
    const n = nonBlank(statement.getStart(source), statement.getEnd());
    data += n;
    if (/name:\s*"svc_/.test(statement.getText(source))) svcOwned += n;
  }
  return { file, lines: nonBlank(0, text.length), data, svcOwned };
}

function build(cli: string, project: string, out: string): void {
  execFileSync(process.execPath, [cli, "build", "--project", project, "--out", out], { stdio: ["ignore", "ignore", "inherit"] });
}

function generatedTs(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(".ts") && f !== "client.ts");
}

function pct(part: number, whole: number): string {
  return whole === 0 ? "0 %" : `${Math.round((100 * part) / whole)} %`;
}

function main(): void {
  const paths = benchPaths();
  const work = mkdtempSync(join(tmpdir(), "svc-output-diff-"));
  try {
    const project = join(work, "project");
    cpSync(paths.exampleProject, project, {
      recursive: true,
      filter: (src) => !/[/\\](dist|data|node_modules)$/.test(src),
    });
    const before = join(work, "before");
    const after = join(work, "after");
    build(paths.svcCli, project, before);
    const moduleFile = join(project, MODULE_FILE);
    writeFileSync(moduleFile, addField(readFileSync(moduleFile, "utf8"), RESOURCE, FIELD));
    build(paths.svcCli, project, after);

    const files = [...new Set([...generatedTs(before), ...generatedTs(after)])].sort();
    const diffs: FileDiff[] = files.map((file) => ({ file, ...diffFiles(join(before, file), join(after, file)) }));
    const shares: Share[] = generatedTs(before)
      .sort()
      .map((file) => shareOf(file, readFileSync(join(before, file), "utf8")));

    if (process.argv.includes("--json")) {
      process.stdout.write(`${JSON.stringify({ edit: `${RESOURCE}: ${FIELD.trim()}`, diffs, shares }, null, 2)}\n`);
      return;
    }
    const out: string[] = [`one nullable field added to resource ${RESOURCE} (\`${FIELD.trim()}\`):`];
    for (const d of diffs) out.push(`  ${d.file.padEnd(14)} ${String(d.changedLines).padStart(5)} changed lines in ${d.hunks} hunks`);
    const total = diffs.reduce((s, d) => ({ l: s.l + d.changedLines, h: s.h + d.hunks }), { l: 0, h: 0 });
    out.push(`  ${"all".padEnd(14)} ${String(total.l).padStart(5)} changed lines in ${total.h} hunks`, "");
    out.push("data (table and statement specs) in the first build, non-blank lines:");
    for (const s of shares) {
      out.push(
        `  ${s.file.padEnd(14)} ${String(s.lines).padStart(5)} lines, ${String(s.data).padStart(5)} data (${pct(s.data, s.lines)}), ` +
          `${s.svcOwned} svc's own tables (${pct(s.svcOwned, s.lines)})`,
      );
    }
    process.stdout.write(`${out.join("\n")}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// Run as a script; imported (by its test), it only exports.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
