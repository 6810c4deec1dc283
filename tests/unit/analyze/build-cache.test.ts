// svc dev's build cache (compiler/dev/build-cache.ts): what a rebuild takes from it, counted
// by its stats, and that a build with it says and produces exactly what a cold one does.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, test } from "../../support/jest.js";
import { BuildCache, describeReuse } from "../../../compiler/dev/build-cache.js";
import { type DiscoverTarget, build, check, formatDiagnostics } from "../../../compiler/index.js";

const FILES: Record<string, string> = {
  "svc.toml": `[project]
name = "notes"
version = "1.0.0"

[modules]
dirs = ["modules/*"]
`,
  "modules/notes/notes.svc": `module notes

resource note {
  id: id
  body: text
  pinned: bool = false
  created_at: timestamp = now()
  index (created_at desc, id desc)
}

query list_notes(limit: int = 50) {
  SELECT * FROM note ORDER BY created_at DESC, id DESC LIMIT @limit
}

query pinned_notes() {
  SELECT id, body FROM note
  WHERE pinned = 1
  ORDER BY created_at DESC, id DESC
}

query count_notes() one {
  SELECT count(*) AS n FROM note
}

action unpin_all() {
  sql { UPDATE note SET pinned = 0 WHERE pinned = 1 }
  return null
}
`,
  "modules/notes/search.svc": `module notes

query search_notes(q: text) {
  SELECT id, body FROM note WHERE body LIKE '%' || @q || '%' ORDER BY id
}
`,
  "app/layout.html": `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>{{title}}</title></head>
<body><main>{{{content}}}</main></body>
</html>
`,
  "app/api/notes/route.svc": `GET {
  query notes.list_notes { limit: input.query.limit }
}
`,
  "app/notes/page.html": `---
title: Notes
route: /api/notes
---
<h1>Notes</h1>
<ul>{{#records}}<li>{{body}}</li>{{/records}}</ul>
`,
  "app/notes/page.jq": `{records: .records}
`,
};

const MODULE = "modules/notes/notes.svc";
const PAGE = "app/notes/page.html";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string> = FILES): DiscoverTarget {
  const dir = mkdtempSync(join(tmpdir(), "svc-build-cache-"));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { mode: "project", dir };
}

/** Replaces `from` in a project file; throws when it is not there, so no test edits nothing. */
function edit(target: DiscoverTarget, path: string, from: string, to: string): void {
  const file = join(target.dir, path);
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`${path} does not contain ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

/** Checks with `cache`, and asserts the outcome is the cold check's, diagnostics and model alike. */
function checkBoth(target: DiscoverTarget, cache: BuildCache, options: { backend?: "postgres" } = {}) {
  const cached = check(target, { ...options, cache });
  const cold = check(target, options);
  expect(cached.diagnostics).toEqual(cold.diagnostics);
  expect(formatDiagnostics(cached)).toBe(formatDiagnostics(cold));
  expect(JSON.stringify(cached.model)).toBe(JSON.stringify(cold.model));
  return cached;
}

describe("the build cache", () => {
  test("a first build does everything; an unchanged rebuild takes everything from the cache", () => {
    const target = project();
    const cache = new BuildCache();
    const first = checkBoth(target, cache);
    expect(first.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(cache.stats).toEqual({
      parsed: 3, // two module files and the route file
      parseHits: 0,
      sqlChecked: 5, // four queries and the action's sql { … }
      sqlHits: 0,
      schemasLoaded: 1,
      templatesChecked: 3, // the page, its title and the layout
      templateHits: 0,
      jqCompiled: 1,
      jqHits: 0,
    });
    checkBoth(target, cache);
    expect(cache.stats).toEqual({
      parsed: 0,
      parseHits: 3,
      sqlChecked: 0,
      sqlHits: 5,
      schemasLoaded: 0,
      templatesChecked: 0,
      templateHits: 3,
      jqCompiled: 0,
      jqHits: 1,
    });
    expect(describeReuse(cache.stats)).toBe("reused 3/3 files, 5/5 SQL statements, 4/4 templates and jq programs");
    cache.dispose();
  });

  test("editing one query re-parses its file and re-checks that statement only, though those below it moved", () => {
    const target = project();
    const cache = new BuildCache();
    checkBoth(target, cache);
    // Two more lines: every statement below starts at another offset and line.
    edit(target, MODULE, "SELECT * FROM note ORDER BY", "SELECT *\n  FROM note\n  ORDER BY");
    checkBoth(target, cache);
    expect(cache.stats).toMatchObject({ parsed: 1, parseHits: 2, sqlChecked: 1, sqlHits: 4, schemasLoaded: 0 });
    expect(cache.stats).toMatchObject({ templatesChecked: 0, jqCompiled: 0 });
    cache.dispose();
  });

  test("editing a page template checks that template again and no SQL", () => {
    const target = project();
    const cache = new BuildCache();
    checkBoth(target, cache);
    edit(target, PAGE, "<h1>Notes</h1>", "<h1>All the notes</h1>\n<p>{{#records.length}}some{{/records.length}}</p>");
    checkBoth(target, cache);
    // The title before the edit is where it was: only the template after it is checked.
    expect(cache.stats).toMatchObject({ templatesChecked: 1, templateHits: 2, jqCompiled: 0, jqHits: 1 });
    expect(cache.stats).toMatchObject({ parsed: 0, sqlChecked: 0, sqlHits: 5, schemasLoaded: 0 });
    cache.dispose();
  });

  test("a resource change re-checks every statement against a new database, and the old one is dropped", () => {
    const target = project();
    const cache = new BuildCache();
    checkBoth(target, cache);
    edit(target, MODULE, "  pinned: bool = false\n", "  pinned: bool = false\n  title: text?\n");
    checkBoth(target, cache);
    expect(cache.stats).toMatchObject({ parsed: 1, sqlChecked: 5, sqlHits: 0, schemasLoaded: 1 });
    expect(cache.sizes).toMatchObject({ schemas: 1, statements: 5 });
    // A doc comment is not part of the schema the SQL is checked against.
    edit(target, MODULE, "resource note {", "/// A note.\nresource note {");
    checkBoth(target, cache);
    expect(cache.stats).toMatchObject({ parsed: 1, sqlChecked: 0, sqlHits: 5, schemasLoaded: 0 });
    cache.dispose();
  });

  test("erroneous edits give the cold build's diagnostics, also when cached SQL moved below the edit", () => {
    const target = project();
    const cache = new BuildCache();
    checkBoth(target, cache);

    // SQL errors and a plan warning, all with places inside the statements.
    edit(target, MODULE, "WHERE pinned = 1", "WHERE pinnd = 1");
    edit(target, MODULE, "SELECT count(*) AS n FROM note", "SELECT count(*) AS n FROM notes");
    edit(target, MODULE, "UPDATE note SET pinned = 0", "UPDATE note SET pined = 0");
    edit(target, "modules/notes/search.svc", "ORDER BY id", "ORDER BY body");
    let result = checkBoth(target, cache);
    const codes = (r: typeof result) => r.diagnostics.map((d) => d.code);
    expect(codes(result).length).toBeGreaterThanOrEqual(4);
    expect(cache.stats).toMatchObject({ sqlChecked: 4, sqlHits: 1 });
    const before = codes(result);

    // The broken statements move down the file, by lines and by columns on their first line,
    // and are answered from the cache: their diagnostics must follow them.
    edit(target, MODULE, "query list_notes(limit: int = 50) {", "query list_notes(limit: int = 50,\n    offset: int = 0) {");
    edit(target, MODULE, "LIMIT @limit\n", "LIMIT @limit OFFSET @offset\n");
    edit(target, MODULE, "  sql { UPDATE", "    sql { UPDATE");
    result = checkBoth(target, cache);
    expect(cache.stats).toMatchObject({ sqlChecked: 1, sqlHits: 4 });
    expect(codes(result)).toEqual(before);

    // A syntax error in the module file, a broken template and a jq program jq rejects.
    edit(target, MODULE, "action unpin_all() {", "action unpin_all( {");
    edit(target, PAGE, "{{/records}}</ul>", "</ul>");
    edit(target, "app/notes/page.jq", "{records: .records}", "{records: .records");
    result = checkBoth(target, cache);
    expect(result.diagnostics.some((d) => d.file === MODULE && d.severity === "error")).toBe(true);
    expect(result.diagnostics.some((d) => d.file === PAGE)).toBe(true);
    expect(result.diagnostics.some((d) => d.file === "app/notes/page.jq")).toBe(true);

    // Checked again unchanged, every answer comes from the cache, and they are still the same.
    checkBoth(target, cache);
    expect(cache.stats).toMatchObject({ parsed: 0, sqlChecked: 0, templatesChecked: 0, jqCompiled: 0 });
    cache.dispose();
  });

  test("the backend's rules are part of a statement's key", () => {
    const target = project();
    edit(target, "modules/notes/search.svc", "WHERE body LIKE", "WHERE id == @q OR body LIKE");
    const cache = new BuildCache();
    const sqlite = checkBoth(target, cache);
    const postgres = checkBoth(target, cache, { backend: "postgres" });
    expect(cache.stats).toMatchObject({ sqlChecked: 5, sqlHits: 0 });
    expect(postgres.diagnostics.length).toBeGreaterThan(sqlite.diagnostics.length);
    checkBoth(target, cache, { backend: "postgres" });
    expect(cache.stats).toMatchObject({ sqlChecked: 0, sqlHits: 5 });
    cache.dispose();
  });

  test("holds only what the last build used, however many versions were saved", () => {
    const target = project();
    const cache = new BuildCache();
    checkBoth(target, cache);
    const sizes = cache.sizes;
    expect(sizes).toEqual({ parses: 3, schemas: 1, statements: 5, templates: 3, jq: 1 });
    for (let i = 0; i < 10; i++) {
      edit(target, MODULE, i === 0 ? "count(*) AS n" : `count(*) AS n${i - 1}`, `count(*) AS n${i}`);
      edit(target, PAGE, i === 0 ? "<h1>Notes</h1>" : `<h1>Notes ${i - 1}</h1>`, `<h1>Notes ${i}</h1>`);
      edit(target, "app/notes/page.jq", i === 0 ? "{records: .records}" : `{records: .records, v: ${i - 1}}`, `{records: .records, v: ${i}}`);
      check(target, { cache });
      expect(cache.sizes).toEqual(sizes);
    }
    // Deleted files and the page's jq program leave with them.
    rmSync(join(target.dir, "app/notes/page.jq"));
    rmSync(join(target.dir, "modules/notes/search.svc"));
    check(target, { cache });
    expect(cache.sizes).toEqual({ parses: 2, schemas: 1, statements: 4, templates: 3, jq: 0 });
    cache.dispose();
    expect(cache.sizes).toEqual({ parses: 0, schemas: 0, statements: 0, templates: 0, jq: 0 });
  });

  test("a build that stops at svc.toml keeps the cache for the next one", () => {
    const target = project();
    const cache = new BuildCache();
    checkBoth(target, cache);
    edit(target, "svc.toml", "[modules]", "[modules");
    const broken = checkBoth(target, cache);
    expect(broken.model).toBeNull();
    edit(target, "svc.toml", "[modules", "[modules]");
    checkBoth(target, cache);
    expect(cache.stats).toMatchObject({ parsed: 0, sqlChecked: 0, schemasLoaded: 0, templatesChecked: 0, jqCompiled: 0 });
    cache.dispose();
  });

  test("build() generates the same server with and without the cache", async () => {
    const target = project();
    const cache = new BuildCache();
    for (const step of [
      () => undefined,
      () => edit(target, MODULE, "LIMIT @limit", "LIMIT @limit OFFSET 0"),
      () => edit(target, PAGE, "<h1>Notes</h1>", "<h1>Notes!</h1>"),
    ]) {
      step();
      const cached = await build(target, { pretty: false, runtimeImport: "svc/runtime", cache });
      const cold = await build(target, { pretty: false, runtimeImport: "svc/runtime" });
      expect(cached.files.some((f) => f.path === "server.ts")).toBe(true);
      expect(cached.files).toEqual(cold.files);
    }
    cache.dispose();
  });
});
