import { afterAll, describe, test, expect } from "../../support/jest.js";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { discover } from "../../../compiler/project/discover.js";
import type { DiscoverFs, DiscoverResult } from "../../../compiler/project/discover.js";

const scratch = mkdtempSync(path.join(os.tmpdir(), "svc-discover-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let count = 0;
/** A fresh folder holding `files` (path → text; a path ending in "/" is an empty folder). */
function tree(files: Record<string, string>): string {
  const root = path.join(scratch, `p${count++}`, "my_project");
  mkdirSync(root, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(root, rel);
    if (rel.endsWith("/")) {
      mkdirSync(abs, { recursive: true });
    } else {
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    }
  }
  return root;
}

const codes = (r: DiscoverResult) =>
  r.diagnostics.map((d) => `${d.code} ${d.file} ${d.span ? `${d.span.start.line}:${d.span.start.column}` : "-"}`);
const paths = (files: { path: string }[]) => files.map((f) => f.path);

describe("discover: module mode", () => {
  test("the folder's own .svc files, sorted; not subfolders, hidden files or other files", () => {
    const root = tree({
      "b.svc": "module tasks\n",
      "a.svc": "module tasks\n",
      "notes.txt": "x",
      ".#a.svc": "lock file",
      "sub/c.svc": "module other\n",
    });
    const { project, diagnostics } = discover({ mode: "module", dir: root });
    expect(diagnostics).toEqual([]);
    expect(project.root).toBe(root);
    expect(project.name).toBe("my_project");
    expect(project.moduleDirs).toEqual([
      {
        dir: ".",
        files: [
          { path: "a.svc", text: "module tasks\n" },
          { path: "b.svc", text: "module tasks\n" },
        ],
      },
    ]);
    expect(paths(project.sources)).toEqual(["a.svc", "b.svc"]);
    expect([project.configFile, project.appDir, project.publicDir]).toEqual([null, null, null]);
    expect(project.config.project).toEqual({ name: "my_project", version: "0.1.0" });
  });

  test("a folder without .svc files", () => {
    const root = tree({ "readme.md": "" });
    const r = discover({ mode: "module", dir: root });
    expect(r.diagnostics.map((d) => [d.code, d.span])).toEqual([["SVC4026", null]]);
    expect(r.project.moduleDirs).toEqual([]);
  });

  test("a missing target or a file as the target", () => {
    const missing = path.join(scratch, "nowhere");
    const r = discover({ mode: "module", dir: missing });
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: "SVC4020", span: null, message: `no folder ${missing}` });
    const file = path.join(tree({ "x.svc": "" }), "x.svc");
    expect(discover({ mode: "app", dir: file }).diagnostics[0].message).toBe(`${file} is a file, not a folder`);
  });
});

describe("discover: app mode", () => {
  test("every direct subfolder holding .svc files, sorted; others ignored", () => {
    const root = tree({
      "zeta/zeta.svc": "module zeta\n",
      "alpha/b.svc": "module alpha\n",
      "alpha/a.svc": "module alpha\n",
      "empty/": "",
      "docs/readme.md": "",
      ".git/x.svc": "",
      "top.svc": "module top\n",
      "alpha/nested/deep.svc": "",
    });
    const { project, diagnostics } = discover({ mode: "app", dir: root });
    expect(diagnostics).toEqual([]);
    expect(project.moduleDirs.map((m) => [m.dir, paths(m.files)])).toEqual([
      ["alpha", ["alpha/a.svc", "alpha/b.svc"]],
      ["zeta", ["zeta/zeta.svc"]],
    ]);
    expect(paths(project.sources)).toEqual(["alpha/a.svc", "alpha/b.svc", "zeta/zeta.svc"]);
  });

  test("no subfolder holds modules", () => {
    const root = tree({ "empty/": "", "docs/readme.md": "" });
    expect(codes(discover({ mode: "app", dir: root }))).toEqual([`SVC4026 ${root} -`]);
  });
});

const MODULES = {
  "modules/tasks/tasks.svc": "module tasks\n",
  "modules/users/users.svc": "module users\n",
  "modules/users/roles.svc": "module users\n",
  "modules/notes/readme.md": "not a module",
};

describe("discover: project mode", () => {
  test("svc.toml, module globs and folders, the app folder and public/", () => {
    const root = tree({
      "svc.toml": '[project]\nname = "tracker"\n[modules]\ndirs = ["modules/*", "extra/billing"]\n',
      ...MODULES,
      "extra/billing/billing.svc": "module billing\n",
      "app/layout.html": "<main>{{{body}}}</main>",
      "app/api/tasks/route.svc": "route\n",
      "app/api/tasks/[id]/route.svc": "route id\n",
      "app/tasks/page.html": "<p>",
      "app/tasks/page.jq": ".",
      "app/tasks/layout.html": "only the top layout counts",
      "app/tasks/notes.md": "",
      "app/.cache/page.html": "",
      "public/style.css": "",
    });
    const { project, diagnostics } = discover({ mode: "project", dir: root });
    expect(diagnostics).toEqual([]);
    expect(project.name).toBe("tracker");
    expect(project.configFile).toBe("svc.toml");
    expect(project.moduleDirs.map((m) => [m.dir, paths(m.files)])).toEqual([
      ["extra/billing", ["extra/billing/billing.svc"]],
      ["modules/tasks", ["modules/tasks/tasks.svc"]],
      ["modules/users", ["modules/users/roles.svc", "modules/users/users.svc"]],
    ]);
    expect(project.appDir).toBe("app");
    expect(paths(project.appFiles)).toEqual([
      "app/api/tasks/[id]/route.svc",
      "app/api/tasks/route.svc",
      "app/layout.html",
      "app/tasks/page.html",
      "app/tasks/page.jq",
    ]);
    expect(project.publicDir).toBe("public");
    expect(paths(project.sources)).toEqual([
      "app/api/tasks/[id]/route.svc",
      "app/api/tasks/route.svc",
      "app/layout.html",
      "app/tasks/page.html",
      "app/tasks/page.jq",
      "extra/billing/billing.svc",
      "modules/tasks/tasks.svc",
      "modules/users/roles.svc",
      "modules/users/users.svc",
      "svc.toml",
    ]);
  });

  test("defaults: folder name, modules/*, and no app or public folder is fine", () => {
    const root = tree({ "svc.toml": "", ...MODULES });
    const { project, diagnostics } = discover({ mode: "project", dir: root });
    expect(diagnostics).toEqual([]);
    expect(project.name).toBe("my_project");
    expect(project.config.project.name).toBe("my_project");
    expect(project.moduleDirs.map((m) => m.dir)).toEqual(["modules/tasks", "modules/users"]);
    expect([project.appDir, project.publicDir, project.appFiles]).toEqual([null, null, []]);
  });

  test("patterns: * within a segment, at any depth, never hidden folders; duplicates once", () => {
    const root = tree({
      "svc.toml": "[modules]\ndirs = ['mod*/t*', 'modules/tasks', 'packs/*/svc']\n",
      ...MODULES,
      "modules/.trash/old.svc": "",
      "packs/one/svc/one.svc": "module one\n",
      "packs/two/svc/two.svc": "module two\n",
      "packs/three/readme.md": "",
    });
    const { project, diagnostics } = discover({ mode: "project", dir: root });
    expect(diagnostics).toEqual([]);
    expect(project.moduleDirs.map((m) => m.dir)).toEqual(["modules/tasks", "packs/one/svc", "packs/two/svc"]);
  });

  test("missing svc.toml", () => {
    const root = tree(MODULES);
    const r = discover({ mode: "project", dir: root });
    expect(codes(r)).toEqual(["SVC4021 svc.toml -"]);
    expect(r.project.configFile).toBeNull();
  });

  test("entries of modules.dirs that find nothing, each at its place in svc.toml", () => {
    const toml = [
      "[modules]",
      "dirs = [",
      '  "nothing/*",', // 3:3
      '  "modules/notes",', // 4:3: exists, holds no .svc
      '  "gone",', // 5:3
      '  "modules/notes/readme.md",', // 6:3: a file
      '  "modules/n*",', // 7:3: matches a folder without .svc files
      '  "modules/*",',
      "]",
    ].join("\n");
    const r = discover({ mode: "project", dir: tree({ "svc.toml": toml, ...MODULES }) });
    expect(codes(r)).toEqual([
      "SVC4022 svc.toml 3:3",
      "SVC4024 svc.toml 4:3",
      "SVC4023 svc.toml 5:3",
      "SVC4023 svc.toml 6:3",
      "SVC4022 svc.toml 7:3",
    ]);
    const messages = r.diagnostics.map((d) => d.message);
    expect(messages[0]).toBe("modules.dirs entry `nothing/*` matches no folder");
    expect(messages[3]).toBe("modules.dirs entry `modules/notes/readme.md` is a file, not a folder");
    expect(messages[4]).toBe("modules.dirs entry `modules/n*` matches 1 folder(s), none holding .svc files");
    expect(r.project.moduleDirs.map((m) => m.dir)).toEqual(["modules/tasks", "modules/users"]);
  });

  test("when an entry was dropped as invalid, its neighbours point at the whole key", () => {
    const r = discover({ mode: "project", dir: tree({ "svc.toml": "[modules]\ndirs = [1, 'gone']\n" }) });
    expect(codes(r)).toEqual(["SVC4023 svc.toml 2:8", "SVC4003 svc.toml 2:9"]);
  });

  test("no modules under the default pattern: one diagnostic", () => {
    const r = discover({ mode: "project", dir: tree({ "svc.toml": "[project]\nname = 'x'\n" }) });
    expect(codes(r)).toEqual(["SVC4026 svc.toml -"]);
  });

  test("an app.dir the user names must exist", () => {
    const r = discover({ mode: "project", dir: tree({ "svc.toml": '[app]\ndir = "web"\n', ...MODULES }) });
    expect(codes(r)).toEqual(["SVC4025 svc.toml 2:7"]);
    expect(r.project.appDir).toBeNull();
    const file = discover({ mode: "project", dir: tree({ "svc.toml": "app.dir = 'svc.toml'\n", ...MODULES }) });
    expect(file.diagnostics[0].message).toBe("app.dir `svc.toml` is a file, not a folder");
  });

  test("svc.toml problems come through, and discovery goes on with the defaults", () => {
    const r = discover({ mode: "project", dir: tree({ "svc.toml": "[server]\nlistn = 1\n", ...MODULES }) });
    expect(codes(r)).toEqual(["SVC4002 svc.toml 2:1"]);
    expect(r.project.moduleDirs).toHaveLength(2);
    const broken = discover({ mode: "project", dir: tree({ "svc.toml": "[server\n", ...MODULES }) });
    expect(codes(broken).map((c) => c.split(" ")[0])).toEqual(["SVC4001"]);
    expect(broken.project.moduleDirs).toHaveLength(2);
    expect(paths(broken.project.sources)).toContain("svc.toml");
  });

  test("a symlink looping back inside the app folder is walked once", () => {
    const root = tree({ "svc.toml": "", ...MODULES, "app/tasks/page.html": "" });
    symlinkSync(path.join(root, "app"), path.join(root, "app", "tasks", "again"));
    expect(paths(discover({ mode: "project", dir: root }).project.appFiles)).toEqual(["app/tasks/page.html"]);
  });
});

/** A file system held in a map, listing folders in the order `order` gives. */
function memoryFs(
  files: Record<string, string>,
  order: (names: string[]) => string[],
  unreadable = new Set<string>(),
): DiscoverFs {
  const dirs = new Set<string>();
  for (const file of Object.keys(files)) {
    for (let d = path.dirname(file); d !== path.dirname(d); d = path.dirname(d)) dirs.add(d);
    dirs.add("/");
  }
  return {
    kind: (p) => (p in files ? "file" : dirs.has(p) ? "dir" : null),
    list: (dir) =>
      order([
        ...new Set(
          [...Object.keys(files), ...dirs]
            .filter((p) => p !== dir && path.dirname(p) === dir)
            .map((p) => path.basename(p)),
        ),
      ]),
    read(file) {
      if (unreadable.has(file)) throw Object.assign(new Error("permission denied"), { code: "EACCES" });
      return files[file];
    },
    realpath: (p) => p,
  };
}

describe("discover: through another file system", () => {
  const files = {
    "/p/svc.toml": "",
    "/p/modules/b/b2.svc": "module b\n",
    "/p/modules/b/b1.svc": "module b\n",
    "/p/modules/a/a.svc": "module a\n",
    "/p/app/z/page.html": "",
    "/p/app/a/page.html": "",
    "/p/app/layout.html": "",
  };

  test("the result does not depend on the order folders are listed in", () => {
    const forward = discover(
      { mode: "project", dir: "/p" },
      memoryFs(files, (n) => [...n].sort()),
    );
    const backward = discover(
      { mode: "project", dir: "/p" },
      memoryFs(files, (n) => [...n].sort().reverse()),
    );
    expect(forward.diagnostics).toEqual([]);
    expect(backward).toEqual(forward);
    expect(forward.project.moduleDirs.map((m) => [m.dir, paths(m.files)])).toEqual([
      ["modules/a", ["modules/a/a.svc"]],
      ["modules/b", ["modules/b/b1.svc", "modules/b/b2.svc"]],
    ]);
    expect(paths(forward.project.appFiles)).toEqual(["app/a/page.html", "app/layout.html", "app/z/page.html"]);
  });

  test("a file that cannot be read is a diagnostic, not a crash", () => {
    const r = discover(
      { mode: "project", dir: "/p" },
      memoryFs(files, (n) => n, new Set(["/p/modules/a/a.svc"])),
    );
    expect(r.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ["SVC4027", "modules/a/a.svc", "cannot read modules/a/a.svc: EACCES"],
    ]);
    expect(r.project.moduleDirs.map((m) => [m.dir, paths(m.files)])).toEqual([
      ["modules/a", []],
      ["modules/b", ["modules/b/b1.svc", "modules/b/b2.svc"]],
    ]);
  });
});
