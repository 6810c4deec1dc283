// public/ beside the server (docs/language.md §5): svc build writes the files to dist/public/,
// the server reads them once at start, makes each ETag from the bytes it serves, and refuses
// to start, naming the files, when some are missing.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { removeDir, startServer } from "../support/server.js";
import { buildProject } from "./support.js";

const project = join(repoRoot, "fixtures", "app-pages", "input");
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A fresh build of the project, changed by `edit` before anything reads it. */
async function built(edit: (out: string) => void = () => undefined): Promise<string> {
  const out = await buildProject(project);
  dirs.push(out);
  edit(out);
  return out;
}

/** Runs `check` against the server of `out`, stopping it afterwards. */
async function serving(out: string, check: (url: string) => Promise<void>): Promise<void> {
  const server = await startServer(out, ["--db", ":memory:"]);
  try {
    await check(server.url);
  } finally {
    await server.stop();
  }
}

const etagOf = (bytes: Buffer) => `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;

describe("public/ beside server.js", () => {
  test("written as the project has them, served with an ETag from their bytes and 304 when current", async () => {
    const out = await built();
    for (const f of ["style.css", "robots.txt", "img/dot.png"]) {
      expect(readFileSync(join(out, "public", f))).toEqual(readFileSync(join(project, "public", f)));
    }
    expect(readFileSync(join(out, "server.js"), "utf8")).not.toContain("font-family");
    await serving(out, async (url) => {
      const css = await call(`${url}/style.css`);
      expect(css.status).toBe(200);
      expect(css.text).toBe("body { font-family: sans-serif; }\n");
      expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
      expect(css.headers["cache-control"]).toBe("no-cache");
      // The ETag the build used to embed, made the same way from the same bytes.
      expect(css.headers.etag).toBe('"C_TWaJMLWrHVQ6sdQ3hefL5LXyn"');
      expect((await call(`${url}/style.css`, { headers: { "if-none-match": String(css.headers.etag) } })).status).toBe(304);
      const png = await call(`${url}/img/dot.png`);
      expect(png.status).toBe(200);
      expect(png.headers["content-type"]).toBe("image/png");
      expect(png.headers.etag).toBe(etagOf(readFileSync(join(project, "public", "img", "dot.png"))));
    });
  }, 60_000);

  test("a file changed after the build is served as it is at start, with an ETag that follows it", async () => {
    const changed = Buffer.from("body { color: red; }\n");
    const out = await built((dir) => writeFileSync(join(dir, "public", "style.css"), changed));
    await serving(out, async (url) => {
      const css = await call(`${url}/style.css`);
      expect(css.text).toBe(changed.toString());
      expect(css.headers.etag).toBe(etagOf(changed));
      expect((await call(`${url}/style.css`, { headers: { "if-none-match": '"C_TWaJMLWrHVQ6sdQ3hefL5LXyn"' } })).status).toBe(200);
    });
  }, 60_000);

  test("missing files stop the server at start with one message naming them, and no stack trace", async () => {
    const out = await built((dir) => {
      rmSync(join(dir, "public", "robots.txt"));
      rmSync(join(dir, "public", "img"), { recursive: true });
    });
    const r = spawnSync(process.execPath, [join(out, "server.js"), "--listen", "127.0.0.1:0", "--db", ":memory:", "--workers", "1"], {
      cwd: out,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot read 2 files of public\/, which svc build writes beside server\.js: /);
    expect(r.stderr).toContain(join(out, "public", "img", "dot.png"));
    expect(r.stderr).toContain(join(out, "public", "robots.txt"));
    expect(r.stderr).toContain("ENOENT");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
