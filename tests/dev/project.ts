// A small project for the dev-loop and deploy tests, written fresh into a temp folder under
// the build directory so that edits never touch the repository's examples.

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const FILES: Record<string, string> = {
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
}

query list_notes() {
  SELECT id, body, 'v1' AS tag FROM note ORDER BY id
}

action add_note(body: text) {
  return insert note { body: body }
}
`,
  "app/layout.html": `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>{{title}}</title></head>
<body><main up-main>{{{content}}}</main></body>
</html>
`,
  "app/api/notes/route.svc": `GET {
  query notes.list_notes {}
}
`,
  "app/notes/page.html": `---
title: Notes
route: /api/notes
---
<h1>Notes v1</h1>
<ul>{{#records}}<li>{{body}}</li>{{/records}}</ul>
`,
  "public/hello.txt": "hello\n",
};

/** The build output folder this compiled test runs from (e.g. build-dev), for temp folders. */
const BUILD_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A fresh copy of the project in a new folder under `<build dir>/tmp`; returns its path. */
export function writeProject(extra: Record<string, string> = {}): string {
  mkdirSync(join(BUILD_DIR, "tmp"), { recursive: true });
  const dir = mkdtempSync(join(BUILD_DIR, "tmp", "project-"));
  for (const [path, text] of Object.entries({ ...FILES, ...extra })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Replaces `from` with `to` in a project file; throws when `from` is not there, so a test cannot edit nothing. */
export function edit(dir: string, path: string, from: string, to: string): void {
  const file = join(dir, path);
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`${path} does not contain ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}
