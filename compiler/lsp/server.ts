// `svc lsp --stdio`: the Language Server Protocol over a pair of streams. This file only
// wires the protocol to the workspace (workspace.ts) and to one module per feature.

import path from "node:path";
import {
  type Connection,
  type InitializeResult,
  ProposedFeatures,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { complete } from "./completion.js";
import { formatDocument } from "./formatting.js";
import { offsetAt, pathOf, rangeOf, uriOf } from "./convert.js";
import { hover } from "./hover.js";
import { definition, references, rename, renameTarget } from "./navigation.js";
import { documentSymbols } from "./outline.js";
import type { Project } from "./project.js";
import { legend, semanticTokens } from "./semantic-tokens.js";
import { Workspace, type WorkspaceOptions } from "./workspace.js";

/** Sent after each check, once its diagnostics are all published: tests and bench/lsp wait for it. */
export const CHECKED_NOTIFICATION = "svc/checked";

export interface CheckedParams {
  root: string;
  diagnostics: number;
  /** CPU time of the check in the server, in ms: what the check costs apart from waiting for a busy machine. */
  cpuMs: number;
}

/** What a client may pass as initializationOptions (and as the `svc` settings section). */
export interface ServerSettings {
  /** Check SQL against svc.toml's live database too (postgres/mysql/tidb), on open and save. Off by default. */
  liveDatabase?: boolean;
  /** Quiet time after an edit before diagnostics are computed; default 30 ms. */
  debounceMs?: number;
}

export function startServer(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Connection {
  const connection = createConnection(ProposedFeatures.all, input, output);
  const documents = new TextDocuments(TextDocument);
  let workspace: Workspace | null = null;
  const ws = () => workspace!;

  /** The project of a document, checked as the editor has it, with the file's path relative to its root. */
  const at = (uri: string): { project: Project; file: string; abs: string } | null => {
    const abs = pathOf(uri);
    if (abs === null || workspace === null) return null;
    const project = ws().current(abs);
    return { project, file: path.relative(project.root, abs).split(path.sep).join("/"), abs };
  };
  const textOf = (uri: string, abs: string) => documents.get(uri)?.getText() ?? ws().fs.read(abs);

  connection.onInitialize((params): InitializeResult => {
    const settings = (params.initializationOptions ?? {}) as ServerSettings;
    const options: WorkspaceOptions = { debounceMs: settings.debounceMs ?? 30, liveDatabase: settings.liveDatabase === true };
    workspace = new Workspace(options, {
      publish: (abs, diagnostics) => connection.sendDiagnostics({ uri: uriOf(abs), diagnostics }),
      checked: (p, cpuMs) =>
        void connection.sendNotification(CHECKED_NOTIFICATION, {
          root: p.root,
          diagnostics: p.result?.diagnostics.length ?? 0,
          cpuMs,
        } satisfies CheckedParams),
      log: (m) => connection.console.log(m),
    });
    const folders = params.workspaceFolders?.map((f) => pathOf(f.uri)) ?? [params.rootUri ? pathOf(params.rootUri) : null];
    pendingFolders = folders.filter((f): f is string => f !== null);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        documentFormattingProvider: true,
        completionProvider: { triggerCharacters: [".", "@", " "] },
        semanticTokensProvider: { legend, full: true },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: "svc" },
    };
  });
  let pendingFolders: string[] = [];

  connection.onInitialized(() => {
    ws().addFolders(pendingFolders);
  });

  connection.onNotification("workspace/didChangeWorkspaceFolders", (params: { event: { added: { uri: string }[]; removed: { uri: string }[] } }) => {
    for (const f of params.event.removed) {
      const p = pathOf(f.uri);
      if (p) ws().removeFolder(p);
    }
    ws().addFolders(params.event.added.map((f) => pathOf(f.uri)).filter((p): p is string => p !== null));
  });

  connection.onDidChangeConfiguration((change) => {
    const svc = (change.settings as { svc?: ServerSettings } | null)?.svc;
    if (workspace && svc?.liveDatabase !== undefined) workspace.setLiveDatabase(svc.liveDatabase);
  });

  // Files changed on disk behind the editor's back (a checkout, a generator, svc.toml saved elsewhere).
  connection.onDidChangeWatchedFiles((p) => {
    for (const change of p.changes) {
      const abs = pathOf(change.uri);
      if (abs && !ws().fs.open.has(abs)) ws().changedOnDisk(abs);
    }
  });

  documents.onDidOpen((e) => {
    const abs = pathOf(e.document.uri);
    if (abs) ws().open(abs, e.document.getText());
  });
  documents.onDidChangeContent((e) => {
    const abs = pathOf(e.document.uri);
    // Opening a document is also its first content event: that text was just checked.
    if (abs && ws().fs.open.has(abs) && ws().fs.open.get(abs) !== e.document.getText()) ws().change(abs, e.document.getText());
  });
  documents.onDidSave((e) => {
    const abs = pathOf(e.document.uri);
    if (abs) ws().save(abs);
  });
  documents.onDidClose((e) => {
    const abs = pathOf(e.document.uri);
    if (abs) ws().close(abs);
  });

  connection.onHover((p) => {
    const h = at(p.textDocument.uri);
    return h ? hover(h.project, h.file, offsetAt(textOf(p.textDocument.uri, h.abs), p.position)) : null;
  });
  connection.onDefinition((p) => {
    const h = at(p.textDocument.uri);
    return h ? definition(h.project, h.file, offsetAt(textOf(p.textDocument.uri, h.abs), p.position)) : null;
  });
  connection.onReferences((p) => {
    const h = at(p.textDocument.uri);
    return h ? references(h.project, h.file, offsetAt(textOf(p.textDocument.uri, h.abs), p.position), p.context.includeDeclaration) : [];
  });
  connection.onPrepareRename((p) => {
    const h = at(p.textDocument.uri);
    const o = h ? renameTarget(h.project, h.file, offsetAt(textOf(p.textDocument.uri, h.abs), p.position)) : null;
    return o ? { range: rangeOf(o.span), placeholder: o.name } : null;
  });
  connection.onRenameRequest((p) => {
    const h = at(p.textDocument.uri);
    if (!h) return null;
    const edit = rename(h.project, h.file, offsetAt(textOf(p.textDocument.uri, h.abs), p.position), p.newName);
    if (typeof edit === "string") throw new Error(edit);
    return edit;
  });
  connection.onDocumentSymbol((p) => {
    const h = at(p.textDocument.uri);
    return h ? documentSymbols(h.project, h.file) : [];
  });
  connection.languages.semanticTokens.on((p) => {
    const h = at(p.textDocument.uri);
    return h ? semanticTokens(h.project, h.file) : { data: [] };
  });
  connection.onCompletion((p) => {
    const h = at(p.textDocument.uri);
    if (!h) return [];
    const text = textOf(p.textDocument.uri, h.abs);
    const routeFile = h.project.cache.routeFileAsts().some((r) => r.file === h.file);
    return complete(h.project, h.file, text, offsetAt(text, p.position), routeFile);
  });

  connection.onDocumentFormatting((p) => {
    const h = at(p.textDocument.uri);
    return h ? formatDocument(textOf(p.textDocument.uri, h.abs), h.abs) : [];
  });

  connection.onShutdown(() => workspace?.dispose());
  documents.listen(connection);
  connection.listen();
  return connection;
}
