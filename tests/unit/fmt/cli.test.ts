// `svc fmt [paths…]`, `--check` and `--stdin`, run in-process on files in build/tmp.

import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../../support/jest.js";
import { FmtCommand } from "../../../compiler/cli/commands/fmt.js";
import { type CliRun, runCli } from "../../dev/helpers.js";
import { tmpDir } from "../../support/server.js";

const work = tmpDir("fmt-cli-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function svcFmt(args: string[], input = ""): Promise<CliRun> {
  return runCli(FmtCommand, ["fmt", ...args], input);
}

const MESSY_MODULE = "module m\nresource r {\nid:id\n}\n";
const TIDY_MODULE = "module m\nresource r {\n  id: id\n}\n";
const MESSY_ROUTE = "GET {query m.list_r\nrespond result}\n";
const TIDY_ROUTE = "GET {\n  query m.list_r\n  respond result\n}\n";

function project(name: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, "modules", "m"), { recursive: true });
  mkdirSync(join(dir, "app", "api", "r"), { recursive: true });
  mkdirSync(join(dir, "node_modules", "x"), { recursive: true });
  writeFileSync(join(dir, "modules", "m", "m.svc"), MESSY_MODULE);
  writeFileSync(join(dir, "app", "api", "r", "route.svc"), MESSY_ROUTE);
  writeFileSync(join(dir, "node_modules", "x", "x.svc"), "module   x\n");
  return dir;
}

describe("svc fmt", () => {
  test("--check lists the files that would change, writes nothing and exits 1", async () => {
    const dir = project("check");
    const run = await svcFmt(["--check", dir]);
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split("\n").sort()).toEqual([join(dir, "app/api/r/route.svc"), join(dir, "modules/m/m.svc")]);
    expect(run.stderr).toContain("would reformat 2 of 2 files");
    expect(readFileSync(join(dir, "modules", "m", "m.svc"), "utf8")).toBe(MESSY_MODULE);
  });

  test("formats in place, route files with their grammar, skipping node_modules; then --check passes", async () => {
    const dir = project("write");
    const run = await svcFmt([dir]);
    expect([run.code, run.stderr]).toEqual([0, "svc fmt: reformatted 2 of 2 files\n"]);
    expect(readFileSync(join(dir, "modules", "m", "m.svc"), "utf8")).toBe(TIDY_MODULE);
    expect(readFileSync(join(dir, "app", "api", "r", "route.svc"), "utf8")).toBe(TIDY_ROUTE);
    expect(readFileSync(join(dir, "node_modules", "x", "x.svc"), "utf8")).toBe("module   x\n");
    const mtime = statSync(join(dir, "modules", "m", "m.svc")).mtimeMs;
    expect((await svcFmt(["--check", dir])).code).toBe(0);
    expect((await svcFmt([dir])).code).toBe(0);
    expect(statSync(join(dir, "modules", "m", "m.svc")).mtimeMs).toBe(mtime);
  });

  test("a file given by name is formatted whatever its folder", async () => {
    const dir = project("one");
    const file = join(dir, "modules", "m", "m.svc");
    expect((await svcFmt([file])).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(TIDY_MODULE);
    expect(readFileSync(join(dir, "app", "api", "r", "route.svc"), "utf8")).toBe(MESSY_ROUTE);
  });

  test("a file that does not parse is reported with file:line:col, left as it is, and the run exits 2", async () => {
    const dir = project("broken");
    const broken = join(dir, "modules", "m", "broken.svc");
    writeFileSync(broken, "module m\naction a( {\n");
    const run = await svcFmt([dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${broken}:2:`);
    expect(run.stderr).toContain("error SVC1001");
    expect(run.stderr).toContain("1 not parsed");
    expect(readFileSync(broken, "utf8")).toBe("module m\naction a( {\n");
    expect(readFileSync(join(dir, "modules", "m", "m.svc"), "utf8")).toBe(TIDY_MODULE);
  });

  test("--stdin prints the formatted text; a path names its grammar", async () => {
    expect(await svcFmt(["--stdin"], MESSY_MODULE)).toEqual({ code: 0, stdout: TIDY_MODULE, stderr: "" });
    expect(await svcFmt(["--stdin", "app/api/r/route.svc"], MESSY_ROUTE)).toEqual({ code: 0, stdout: TIDY_ROUTE, stderr: "" });
    // The same text read as a module file does not parse.
    const asModule = await svcFmt(["--stdin", "m.svc"], MESSY_ROUTE);
    expect([asModule.code, asModule.stdout]).toEqual([2, ""]);
    expect(asModule.stderr).toContain("m.svc:1:1: error");
  });

  test("--stdin --check exits 1 for unformatted input, 0 for formatted", async () => {
    expect((await svcFmt(["--stdin", "--check"], MESSY_MODULE)).code).toBe(1);
    expect((await svcFmt(["--stdin", "--check"], TIDY_MODULE)).code).toBe(0);
  });
});
