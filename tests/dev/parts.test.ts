import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, test } from "../support/jest.js";
import { isWatched, onlyMainArea } from "../../compiler/dev/watch.js";
import { extractTarGz, readTarGz, writeTarGz } from "../../compiler/deploy/tar.js";
import { EVENTS_PATH } from "../../compiler/dev/live-reload.js";
import { injectBeforeBodyEnd, overlayHtml } from "../../compiler/dev/overlay.js";
import { type TemplateName, escapeHtml, readTemplate, renderTemplate } from "../../compiler/templates.js";
import { repoRoot } from "../support/paths.js";

describe("the deploy archive's tar format", () => {
  test("round-trips files, folders, modes and long paths byte for byte", () => {
    const long = `node_modules/${"a".repeat(60)}/${"b".repeat(60)}/${"c".repeat(40)}.js`;
    const binary = Buffer.from([0, 1, 2, 255, 254, 10]);
    const entries = [
      { path: "bin" },
      { path: "start.sh", data: Buffer.from("#!/bin/sh\n"), mode: 0o755 },
      { path: long, data: Buffer.alloc(1500, "x") },
      { path: "addon.node", data: binary },
    ];
    const back = readTarGz(writeTarGz(entries));
    expect(back.map((e) => e.path)).toEqual(["bin", "start.sh", long, "addon.node"]);
    expect(back[0].data).toBeUndefined();
    expect(back[1].mode).toBe(0o755);
    expect(back[2].data!.equals(Buffer.alloc(1500, "x"))).toBe(true);
    expect(back[3].data!.equals(binary)).toBe(true);
    // The same input makes the same bytes: no times or owners from this machine.
    expect(writeTarGz(entries).equals(writeTarGz(entries))).toBe(true);
  });

  test("refuses a name that does not fit ustar, a truncated archive, and a path leaving the folder", () => {
    expect(() => writeTarGz([{ path: "x".repeat(120), data: Buffer.alloc(1) }])).toThrow(/path too long/);
    const whole = writeTarGz([{ path: "f", data: Buffer.alloc(2000) }]);
    const tar = gunzipSync(whole).subarray(0, 1024);
    expect(() => readTarGz(gzipSync(tar))).toThrow(/truncated/);

    const dir = mkdtempSync(join(tmpdir(), "svc-tar-"));
    try {
      expect(() => extractTarGz(writeTarGz([{ path: "../escape.txt", data: Buffer.from("no") }]), dir)).toThrow(
        /outside its folder/,
      );
      extractTarGz(writeTarGz([{ path: "a/b.txt", data: Buffer.from("yes") }]), dir);
      expect(readFileSync(join(dir, "a", "b.txt"), "utf8")).toBe("yes");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("what svc dev watches", () => {
  test.each([
    ["svc.toml", true],
    ["modules/notes/notes.svc", true],
    ["app/layout.html", true],
    ["app/tasks/[id]/page.jq", true],
    ["public/logo.png", true],
    ["node_modules/x/index.svc", false],
    ["dist/server.js", false],
    ["data/tasks.db", false],
    [".git/HEAD", false],
    ["modules/notes/notes.svc~", false],
    ["modules/notes/.notes.svc.swp", false],
    ["modules/notes/4913", false],
    ["README.md", false],
  ])("%s → %s", (path, watched) => {
    expect(isWatched(path)).toBe(watched);
  });
});

describe("which saves Unpoly may show by re-rendering the main area", () => {
  test.each([
    [["modules/notes/notes.svc"], true],
    [["app/api/notes/route.svc", "app/notes/page.html"], true],
    [["app/tasks/[id]/page.jq"], true],
    [["app/layout.html"], false],
    [["app/notes/page.html", "app/layout.html"], false],
    [["public/style.css"], false],
    [["svc.toml"], false],
    [["app/tasks"], false],
    [[], false],
  ])("%j → %s", (paths, main) => {
    expect(onlyMainArea(paths)).toBe(main);
  });
});

describe("the dev overlay", () => {
  test("goes before </body>, or at the end without one, and escapes the diagnostics", () => {
    expect(injectBeforeBodyEnd("<html><body><p>x</p></BODY></html>", "<i>s</i>")).toBe(
      "<html><body><p>x</p><i>s</i></BODY></html>",
    );
    expect(injectBeforeBodyEnd("<p>x</p>", "<i>s</i>")).toBe("<p>x</p><i>s</i>");
    expect(escapeHtml(`<script>"a" & 'b'</script>`)).toBe(
      "&#60;script&#62;&#34;a&#34; &#38; &#39;b&#39;&#60;/script&#62;",
    );
  });
});

describe("templates/: the assets svc writes or serves, as files", () => {
  const names: TemplateName[] = [
    "dev/client.js",
    "dev/overlay.html",
    "dev/error-page.html",
    "pages/layout.html",
    "pages/error.html",
    "output/package.json",
    "output/start.sh",
    "client/runtime.ts",
    "client/runtime.js",
  ];

  test("every template is a file of templates/ and reads as what it is", () => {
    for (const name of names) expect(readTemplate(name)).toBe(readFileSync(join(repoRoot, "templates", name), "utf8"));
    // The client script is JavaScript that listens where the dev server sends events.
    expect(() => new Function(readTemplate("dev/client.js"))).not.toThrow();
    expect(readTemplate("dev/client.js")).toContain(`new EventSource(${JSON.stringify(EVENTS_PATH)})`);
    expect(JSON.parse(readTemplate("output/package.json"))).toEqual({ type: "module", private: true });
    expect(readTemplate("output/start.sh")).toMatch(/^#!\/bin\/sh\n[\s\S]*exec node server\.js "\$@"\n$/);
    expect(statSync(join(repoRoot, "templates", "output", "start.sh")).mode & 0o111).not.toBe(0);
  });

  test("the overlay and the error page escape what they show, and hold markup given to them as it is", () => {
    const overlay = overlayHtml("the project <does> not build", "modules/a.svc:1:1: `x` & <y>");
    expect(overlay).toContain("<h2>svc dev: the project &#60;does&#62; not build</h2>");
    expect(overlay).toContain("<pre>modules/a.svc:1:1: `x` &#38; &#60;y&#62;</pre>");
    expect(renderTemplate("dev/error-page.html", { summary: "<b>", overlay: "<div id=o></div>", script: "<script src=/c.js></script>" })).toBe(
      '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>svc dev: build error</title></head>\n' +
        "<body><p>&#60;b&#62;</p><div id=o></div><script src=/c.js></script></body></html>\n",
    );
  });
});
