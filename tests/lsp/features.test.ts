// `svc lsp --stdio` driven as an editor drives it (vscode-jsonrpc over the server's pipes):
// diagnostics while typing, hover, definition, references, rename, completion, document
// symbols and semantic tokens on a small project. One server for the whole suite.

import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import type {
  CompletionItem,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  Range,
  SemanticTokens,
  TextEdit,
  WorkspaceEdit,
} from "vscode-languageserver-protocol";
import { formatSvc } from "../../compiler/fmt/index.js";
import { check } from "../../compiler/index.js";
import { LspClient, positionOf, uri } from "../../bench/lsp/client.js";
import { FILES, writeProject } from "./project.js";

const NOTES = "modules/notes/notes.svc";
const ROUTE = "app/api/notes/route.svc";
const notes = FILES[NOTES];
const route = FILES[ROUTE];

let root: string;
let client: LspClient;
const abs = (rel: string) => path.join(root, rel);

beforeAll(async () => {
  root = writeProject();
  client = new LspClient({ debounceMs: 5 });
  const checked = client.nextCheck(root);
  await client.initialize([root]);
  await checked;
  const opened = client.nextCheck(root);
  await client.open(abs(NOTES));
  await opened;
  const both = client.nextCheck(root);
  await client.open(abs(ROUTE));
  await both;
});

afterAll(async () => {
  await client.stop();
  rmSync(root, { recursive: true, force: true });
});

/** A request at the n-th character of `needle` in a file's text. */
function at<R>(method: string, rel: string, text: string, needle: string, skip = 0, extra: Record<string, unknown> = {}): Promise<R> {
  const p = positionOf(text, needle, skip);
  return client.request<R>(method, abs(rel), p.line, p.character, extra);
}

const hoverText = async (rel: string, text: string, needle: string, skip = 0) =>
  ((await at<Hover | null>("textDocument/hover", rel, text, needle, skip))?.contents as { value: string } | undefined)?.value ?? "";

const labels = (items: CompletionItem[] | null) => (items ?? []).map((i) => i.label);

function lineOf(text: string, needle: string): number {
  return positionOf(text, needle).line;
}

describe("diagnostics", () => {
  test("the project's files are checked when the folder opens: this one is clean", () => {
    expect(client.diagnostics.get(uri(abs(NOTES)))).toEqual([]);
  });

  /** Types `text` into the module file and waits for the check that follows; the diagnostics of a file after it. */
  async function edit(text: string): Promise<(rel: string) => Diagnostic[] | undefined> {
    const checked = client.nextCheck(root);
    await client.change(abs(NOTES), text);
    await checked;
    return (rel) => client.diagnostics.get(uri(abs(rel)));
  }

  test("an edit is checked from the unsaved buffer, and the fix clears it", async () => {
    const broken = notes.replace("trim(title)", "trim(titel)");
    const found = (await edit(broken))(NOTES)!;
    expect(found.map((d) => d.code)).toEqual(["SVC2010"]);
    expect(found[0].range.start).toEqual(positionOf(broken, "titel)"));
    // Exactly what svc check says of the same text.
    const checkedRoot = writeProject({ ...FILES, [NOTES]: broken });
    const expected = check({ mode: "project", dir: checkedRoot }).diagnostics;
    rmSync(checkedRoot, { recursive: true, force: true });
    expect(found.map((d) => d.message)).toEqual(expected.map((d) => d.message));

    const hover = await hoverText(NOTES, broken, "titel)", 1);
    expect(hover).toContain("SVC2010");
    expect(hover).toContain("A name is not a parameter, a variable, a query, an action or a built-in function.");

    expect((await edit(notes))(NOTES)).toEqual([]);
  });

  test("an edit in a module file shows in the route file that calls it", async () => {
    const found = (await edit(notes.replaceAll("find_notes", "find_all")))(ROUTE)!;
    expect(found.length).toBeGreaterThan(0);
    expect(found[0].range.start.line).toBe(lineOf(route, "find_notes"));
    expect((await edit(notes))(ROUTE)).toEqual([]);
  });
});

describe("hover", () => {
  test("a let's type, from the analyzed action", async () => {
    expect(await hoverText(NOTES, notes, "title: clean", 7)).toContain("let clean: text");
  });

  test("a query's result row", async () => {
    const text = await hoverText(ROUTE, route, "find_notes");
    expect(text).toContain("query find_notes(word: text)");
    expect(text).toContain("id: id");
    expect(text).toContain("title: text");
  });

  test("a field inside SQL, with the resource's doc for the resource", async () => {
    expect(await hoverText(NOTES, notes, "n.title LIKE", 2)).toContain("field title: text");
    const resource = await hoverText(NOTES, notes, "get note", 4);
    expect(resource).toContain("body: text?");
    expect(resource).toContain("A note.");
  });

  test("a built-in's signature and doc from docs/language.md", async () => {
    const text = await hoverText(NOTES, notes, "trim(");
    expect(text).toContain("trim(s)");
    expect(text).toContain("surrounding blanks");
  });

  test("an argument's type", async () => {
    expect(await hoverText(NOTES, notes, "event: text?")).toContain("event: text?");
  });

  test("any expression's type, the innermost around the cursor", async () => {
    // On `==`: the comparison, not either side.
    expect(await hoverText(NOTES, notes, "== null")).toBe("```svc\n: bool\n```");
    // On the braces of an update: the row it answers.
    expect(await hoverText(NOTES, notes, "{ title: clean }")).toBe("```svc\n: note?\n```");
    // On `null` itself: the literal.
    expect(await hoverText(NOTES, notes, "null {", 1)).toBe("```svc\n: null\n```");
  });
});

describe("definition and references", () => {
  const definition = (rel: string, text: string, needle: string, skip = 0) =>
    at<Location | null>("textDocument/definition", rel, text, needle, skip);

  test("a route file's step goes to the query", async () => {
    const loc = await definition(ROUTE, route, "find_notes");
    expect(loc?.uri).toBe(uri(abs(NOTES)));
    expect(loc?.range.start).toEqual(positionOf(notes, "find_notes"));
  });

  test("a field inside SQL goes to its declaration", async () => {
    const loc = await definition(NOTES, notes, "n.title LIKE", 2);
    expect(loc?.range.start).toEqual(positionOf(notes, "title: text"));
  });

  test("a webhook's credential goes to svc.toml, its handler to the action", async () => {
    const cred = await definition(NOTES, notes, "credentials.hook", 12);
    expect(cred?.uri).toBe(uri(abs("svc.toml")));
    expect(cred?.range.start).toEqual(positionOf(FILES["svc.toml"], "hook ="));
    const handler = await definition(NOTES, notes, "handler: on_hook", 9);
    expect(handler?.range.start).toEqual(positionOf(notes, "on_hook("));
  });

  test("a module route's target goes to the query", async () => {
    const loc = await definition(NOTES, notes, "=> find_notes", 3);
    expect(loc?.range.start).toEqual(positionOf(notes, "find_notes"));
  });

  test("an argument's references: @word in SQL and the route file's step", async () => {
    const refs = await at<Location[]>("textDocument/references", NOTES, notes, "word: text", 0, { context: { includeDeclaration: false } });
    expect(refs.map((r) => [r.uri, r.range.start])).toEqual(
      expect.arrayContaining([
        [uri(abs(NOTES)), positionOf(notes, "@word", 1)],
        [uri(abs(ROUTE)), positionOf(route, "word:")],
      ]),
    );
    expect(refs).toHaveLength(2);
  });

  test("a field's references include SQL and record operations", async () => {
    const refs = await at<Location[]>("textDocument/references", NOTES, notes, "title: text", 0, { context: { includeDeclaration: true } });
    const starts = refs.map((r) => r.range.start);
    expect(starts).toHaveLength(4);
    expect(starts).toEqual(
      expect.arrayContaining([
        positionOf(notes, "title: text"),
        positionOf(notes, "n.title FROM", 2),
        positionOf(notes, "n.title LIKE", 2),
        positionOf(notes, "title: clean"),
      ]),
    );
  });
});

describe("rename", () => {
  function applied(edit: WorkspaceEdit): Record<string, string> {
    const out = { ...FILES };
    for (const [u, edits] of Object.entries(edit.changes ?? {})) {
      const rel = path.relative(root, new URL(u).pathname).split(path.sep).join("/");
      let text = out[rel];
      const offset = (r: Range["start"]) => text.split("\n").slice(0, r.line).reduce((n, l) => n + l.length + 1, 0) + r.character;
      for (const e of [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start))) {
        text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
      }
      out[rel] = text;
    }
    return out;
  }

  const cleanAfter = (files: Record<string, string>) => {
    const dir = writeProject(files);
    try {
      return check({ mode: "project", dir }).diagnostics;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  test("a query, across the module and the route file", async () => {
    const edit = await at<WorkspaceEdit>("textDocument/rename", ROUTE, route, "find_notes", 0, { newName: "search_notes" });
    const files = applied(edit);
    expect(files[ROUTE]).toContain("query notes.search_notes");
    expect(files[NOTES]).toContain("query search_notes(");
    expect(files[NOTES]).toContain('=> search_notes');
    expect(cleanAfter(files)).toEqual([]);
  });

  test("a field, inside SQL too", async () => {
    const edit = await at<WorkspaceEdit>("textDocument/rename", NOTES, notes, "title: text", 0, { newName: "heading" });
    const files = applied(edit);
    expect(files[NOTES]).toContain("SELECT n.id, n.heading FROM note n WHERE n.heading LIKE @word");
    expect(files[NOTES]).toContain("{ heading: clean }");
    // The action's argument of the same name is another name: it stays.
    expect(files[NOTES]).toContain("rename_note(id: id, title: text)");
    expect(cleanAfter(files)).toEqual([]);
  });

  test("a built-in, an argument or a resource cannot be renamed, and a new name must be a name", async () => {
    expect(await at("textDocument/prepareRename", NOTES, notes, "trim(")).toBeNull();
    expect(await at("textDocument/prepareRename", NOTES, notes, "word: text")).toBeNull();
    expect(await at("textDocument/prepareRename", NOTES, notes, "note {")).toBeNull();
    expect(await at("textDocument/prepareRename", NOTES, notes, "find_notes")).toMatchObject({ placeholder: "find_notes" });
    await expect(at("textDocument/rename", NOTES, notes, "find_notes", 0, { newName: "1x" })).rejects.toThrow("is not a name");
  });
});

describe("completion", () => {
  const complete = (rel: string, text: string, needle: string, skip: number) =>
    at<CompletionItem[] | null>("textDocument/completion", rel, text, needle, skip);

  test("@arguments and a table's fields inside SQL", async () => {
    expect(labels(await complete(NOTES, notes, "@word", 1))).toEqual(["word"]);
    expect(labels(await complete(NOTES, notes, "n.title LIKE", 2)).sort()).toEqual(["body", "id", "title"]);
  });

  test("a route file's steps: queries after query, actions after invoke", async () => {
    expect(labels(await complete(ROUTE, route, "notes.find_notes", 6))).toEqual(["find_notes"]);
    expect(labels(await complete(ROUTE, route, "notes.rename_note", 6)).sort()).toEqual(["on_hook", "rename_note"]);
  });

  test("statements, built-ins as snippets, queries with their arguments and lets in an action body", async () => {
    const items = (await complete(NOTES, notes, "return update", 0)) ?? [];
    expect(labels(items)).toEqual(expect.arrayContaining(["let", "if", "for", "trim", "find_notes", "clean", "found", "title"]));
    expect(items.find((i) => i.label === "find_notes")?.insertText).toBe("find_notes(word: ${1:word})");
    expect(items.find((i) => i.label === "replace")?.insertText).toBe("replace(${1:s}, ${2:from}, ${3:to})");
  });

  test("in a resource: change clauses after a field's type, drop beside index; drop resource between declarations; a field's hover shows its change", async () => {
    const typed = notes.replace("  body: text?\n", "  body: text? \n");
    const changed = client.nextCheck(root);
    await client.change(abs(NOTES), typed);
    await changed;
    try {
      expect(labels(await complete(NOTES, typed, "  body: text? ", 14))).toEqual(["renamed from", "changed from", "using", "back", "lossy", "backfill"]);
      expect(labels(await complete(NOTES, typed, "  body", 2))).toEqual(expect.arrayContaining(["index", "drop"]));
      expect(labels(await complete(NOTES, typed, "\n\n/// Notes", 1))).toContain("drop resource");
      const renamed = typed.replace("  body: text? \n", "  body: text renamed from content backfill (title)\n");
      const again = client.nextCheck(root);
      await client.change(abs(NOTES), renamed);
      await again;
      expect(await hoverText(NOTES, renamed, "  body:", 3)).toContain("field body: text renamed from content backfill (…)");
    } finally {
      const restored = client.nextCheck(root);
      await client.change(abs(NOTES), notes);
      await restored;
    }
  });

  test("resources after get, declarations between declarations", async () => {
    expect(labels(await complete(NOTES, notes, "get note", 4))).toEqual(["note"]);
    expect(labels(await complete(NOTES, notes, "\n\n/// Notes", 1))).toEqual(expect.arrayContaining(["resource", "query", "action", "fn", "route"]));
  });
});

describe("document symbols and semantic tokens", () => {
  test("the declarations of a file, with their fields", async () => {
    const symbols = await client.request<DocumentSymbol[]>("textDocument/documentSymbol", abs(NOTES), 0, 0);
    expect(symbols.map((s) => s.name)).toEqual(["note", "find_notes", "rename_note", "on_hook"]);
    expect(symbols[0].children?.map((c) => c.name)).toEqual(["id", "title", "body"]);
  });

  test("formatting is svc fmt's layout, one edit for the whole file; none for a file already laid out", async () => {
    const messy = notes.replace("\n\n", "\n\n\n\n");
    expect(messy).not.toEqual(notes);
    const laidOut = formatSvc(notes, abs(NOTES));
    const checked = client.nextCheck(root);
    await client.change(abs(NOTES), messy);
    await checked;
    const edits = await client.request<TextEdit[]>("textDocument/formatting", abs(NOTES), 0, 0, { options: { tabSize: 2, insertSpaces: true } });
    expect(edits).toHaveLength(1);
    expect(edits[0].range.start).toEqual({ line: 0, character: 0 });
    expect(edits[0].newText).toEqual(laidOut);
    const back = client.nextCheck(root);
    await client.change(abs(NOTES), laidOut);
    await back;
    expect(await client.request<TextEdit[]>("textDocument/formatting", abs(NOTES), 0, 0, { options: { tabSize: 2, insertSpaces: true } })).toEqual([]);
    if (laidOut !== notes) {
      const restored = client.nextCheck(root);
      await client.change(abs(NOTES), notes);
      await restored;
    }
  });

  test("names inside SQL are colored as what they are", async () => {
    const legend = ["type", "class", "property", "function", "method", "parameter", "variable", "namespace", "struct"];
    const { data } = await client.request<SemanticTokens>("textDocument/semanticTokens/full", abs(NOTES), 0, 0);
    const tokens: { line: number; character: number; length: number; type: string; modifiers: number }[] = [];
    let line = 0;
    let character = 0;
    for (let i = 0; i < data.length; i += 5) {
      line += data[i];
      character = data[i] === 0 ? character + data[i + 1] : data[i + 1];
      tokens.push({ line, character, length: data[i + 2], type: legend[data[i + 3]], modifiers: data[i + 4] });
    }
    const find = (needle: string, skip = 0) => {
      const p = positionOf(notes, needle, skip);
      return tokens.find((t) => t.line === p.line && t.character === p.character);
    };
    expect(find("n.title LIKE", 2)).toMatchObject({ type: "property", length: 5 });
    expect(find("note n", 0)).toMatchObject({ type: "class" });
    expect(find("@word", 1)).toMatchObject({ type: "parameter", length: 4 });
    expect(find("find_notes")).toMatchObject({ type: "function", modifiers: 1 });
    expect(find("trim(")).toMatchObject({ type: "function", modifiers: 2 });
  });
});

