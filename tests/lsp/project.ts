// A small project for the language server's suites: one module with a resource, a query
// with SQL, actions, a webhook reading a credential of svc.toml, a route, and a route file.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const FILES: Record<string, string> = {
  "svc.toml": `[project]
name = "notes"

[modules]
dirs = ["modules/*"]

[credentials]
hook = { env = "HOOK_SECRET" }
`,
  "modules/notes/notes.svc": `module notes

/// A note.
resource note {
  id: id
  title: text
  body: text?
}

/// Notes whose title holds a word.
query find_notes(word: text) {
  SELECT n.id, n.title FROM note n WHERE n.title LIKE @word
}

action rename_note(id: id, title: text) {
  let found = get note(id)
  if found == null { fail 404 "no such note" }
  let clean = trim(title)
  return update note(id) { title: clean }
}

webhook hooked {
  provider: "github"
  secret: credentials.hook
  path: "/hooks/github"
  handler: on_hook
}

action on_hook(payload: json, event: text?) {
  return null
}

route GET "/v1/notes" => find_notes
`,
  "app/api/notes/route.svc": `GET {
  query notes.find_notes { word: input.query.word }
}

POST {
  invoke notes.rename_note { id: input.body.id, title: input.body.title }
}
`,
};

/** Writes the files (or others) into a new temporary folder; returns its path. */
export function writeProject(files: Record<string, string> = FILES): string {
  const root = mkdtempSync(path.join(tmpdir(), "svc-lsp-"));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}
