// `--openapi`: the server answers /openapi.json (the file svc build wrote) and an API
// reference page at /_svc/docs from the installed swagger-ui-dist, under the pages' CSP
// with no inline script; without the flag both are 404.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { parseServerArgs } from "../../runtime/start/options.js";
import { CONTENT_SECURITY_POLICY } from "../../runtime/core/answer/html-headers.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { buildTo, removeDir, startServer, type TestServer } from "../support/server.js";

describe("--openapi", () => {
  let dir: string;
  let on: TestServer;
  let off: TestServer;

  beforeAll(async () => {
    dir = await buildTo({ mode: "project", dir: join(repoRoot, "examples", "task_tracker") });
    on = await startServer(dir, ["--db", ":memory:", "--openapi"]);
    off = await startServer(dir, ["--db", ":memory:"]);
  });

  afterAll(async () => {
    await on?.stop();
    await off?.stop();
    if (dir) removeDir(dir);
  });

  test("/openapi.json is the file svc build wrote", async () => {
    const res = await call(on.url + "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.text).toBe(readFileSync(join(dir, "openapi.json"), "utf8"));
    expect((await call(on.url + "/openapi.json", { method: "POST", json: {} })).status).toBe(405);
  });

  test("/_svc/docs and every file it loads answer 200, the page under the CSP and with no inline script", async () => {
    const page = await call(on.url + "/_svc/docs");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/ src="\/_svc\/docs\//);
      expect(body).toBe("");
    }
    const assets = [...page.text.matchAll(/(?:src|href)="(\/_svc\/docs\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets).toHaveLength(3);
    for (const path of assets) {
      const res = await call(on.url + path);
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/(javascript|css); charset=utf-8$/);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    }
    const init = assets.find((p) => p.endsWith("/init.js"))!;
    expect((await call(on.url + init)).text).toContain('url: "/openapi.json"');
    // Swagger UI's bundle itself, from node_modules, byte for byte.
    const bundle = assets.find((p) => p.endsWith("/swagger-ui-bundle.js"))!;
    expect((await call(on.url + bundle)).text).toBe(readFileSync(join(repoRoot, "node_modules", "swagger-ui-dist", "swagger-ui-bundle.js"), "utf8"));
  });

  test("without the flag, both are 404 and the API still answers", async () => {
    expect((await call(off.url + "/openapi.json")).status).toBe(404);
    expect((await call(off.url + "/_svc/docs")).status).toBe(404);
    expect((await call(off.url + "/api/task_tracker:list_tasks")).status).toBe(200);
  });

  test("the flag alone, =false, svc.toml's [server] openapi, and a bad value", () => {
    const parse = (argv: string[], defaults = {}) => {
      const r = parseServerArgs(argv, {}, defaults);
      return "options" in r ? r.options.openapi : null;
    };
    expect(parse([])).toBe(false);
    expect(parse(["--openapi"])).toBe(true);
    expect(parse(["--openapi", "--workers", "1"])).toBe(true);
    expect(parse(["--openapi=false"], { openapi: true })).toBe(false);
    expect(parse([], { openapi: true })).toBe(true);
    expect(() => parse(["--openapi=yes"])).toThrow('--openapi is "yes"');
  });
});
