// The build cache the suites share (tests/support/build-cache.ts): a build of the same
// inputs is kept once and read back equal, bytes of public/ files included; any change
// below the project's folder, or another option, is another build; a failed build is not
// kept and still throws its diagnostics. Each test works on a copy of its own.

import { expect, test } from "../../support/jest.js";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "../../../compiler/index.js";
import { buildFiles, cacheFile } from "../../support/build-cache.js";
import { repoRoot } from "../../support/paths.js";
import { removeDir, tmpDir } from "../../support/server.js";

const OPTIONS = { runtimeImport: "svc/runtime" };

function copyOf(fixture: string): string {
  const dir = tmpDir("cache-");
  cpSync(join(repoRoot, "fixtures", fixture, "input"), dir, { recursive: true });
  return dir;
}

test("the second build of the same inputs is read back: the same files, bytes and all, as a fresh build", async () => {
  const dir = copyOf("app-pages");
  try {
    const target = { mode: "project" as const, dir };
    expect(existsSync(cacheFile(target, OPTIONS))).toBe(false);
    const first = await buildFiles(target, OPTIONS);
    expect(existsSync(cacheFile(target, OPTIONS))).toBe(true);
    const second = await buildFiles(target, OPTIONS);
    const fresh = (await build(target, OPTIONS)).files;
    expect(second).toEqual(first);
    expect(second).toEqual(fresh);
    const png = second.find((f) => f.path === "public/img/dot.png")!;
    expect(Buffer.isBuffer(png.contents)).toBe(true);
    expect(png.contents).toEqual(readFileSync(join(dir, "public", "img", "dot.png")));
    expect(typeof second.find((f) => f.path === "server.js")!.contents).toBe("string");
  } finally {
    removeDir(dir);
  }
});

test("a changed file below the folder, or other options, is another build", async () => {
  const dir = copyOf("app-pages");
  try {
    const target = { mode: "project" as const, dir };
    const before = cacheFile(target, OPTIONS);
    const first = await buildFiles(target, OPTIONS);
    expect(cacheFile(target, { runtimeImport: "../../runtime/index.js" })).not.toBe(before);

    writeFileSync(join(dir, "public", "robots.txt"), "User-agent: *\nDisallow: /private\n");
    expect(cacheFile(target, OPTIONS)).not.toBe(before);
    const changed = await buildFiles(target, OPTIONS);
    const robots = (files: typeof first) => String(files.find((f) => f.path === "public/robots.txt")!.contents);
    expect(robots(changed)).toContain("Disallow: /private");
    expect(robots(first)).not.toContain("Disallow: /private");
  } finally {
    removeDir(dir);
  }
});

test("a build with errors throws its diagnostics and is not kept", async () => {
  const dir = copyOf("app-pages");
  try {
    writeFileSync(join(dir, "modules", "notes", "broken.svc"), "resource {\n");
    const target = { mode: "project" as const, dir };
    await expect(buildFiles(target, OPTIONS)).rejects.toThrow(/^build failed:\n[\s\S]*error/);
    expect(existsSync(cacheFile(target, OPTIONS))).toBe(false);
  } finally {
    removeDir(dir);
  }
});
