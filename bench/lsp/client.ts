// A client of `svc lsp --stdio` for tests and bench/lsp: spawns the server, speaks JSON-RPC
// to it over its pipes (vscode-jsonrpc, as an editor's client does), and keeps what it
// publishes, so a caller can wait for the diagnostics that follow an edit.

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type MessageConnection, StreamMessageReader, StreamMessageWriter, createMessageConnection } from "vscode-jsonrpc/node";
import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";

const SVC = join(fileURLToPath(import.meta.url), "..", "..", "..", "compiler", "cli", "svc.js");

export interface CheckedParams {
  root: string;
  diagnostics: number;
  /** CPU time of the check in the server, in ms. */
  cpuMs: number;
}

export class LspClient {
  readonly connection: MessageConnection;
  /** uri → the diagnostics last published for it. */
  readonly diagnostics = new Map<string, Diagnostic[]>();
  private readonly process: ChildProcess;
  private waiters: { root: string; resolve: (p: CheckedParams) => void }[] = [];
  private publishWaiters: { uri: string; resolve: (d: Diagnostic[]) => void }[] = [];
  private versions = new Map<string, number>();

  constructor(initializationOptions: Record<string, unknown> = {}) {
    this.process = spawn(process.execPath, [SVC, "lsp", "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
    this.connection = createMessageConnection(new StreamMessageReader(this.process.stdout!), new StreamMessageWriter(this.process.stdin!));
    this.connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
      this.diagnostics.set(p.uri, p.diagnostics);
      const ready = this.publishWaiters.filter((w) => w.uri === p.uri);
      this.publishWaiters = this.publishWaiters.filter((w) => w.uri !== p.uri);
      for (const w of ready) w.resolve(p.diagnostics);
    });
    this.connection.onNotification("svc/checked", (p: CheckedParams) => {
      const ready = this.waiters.filter((w) => w.root === p.root);
      this.waiters = this.waiters.filter((w) => w.root !== p.root);
      for (const w of ready) w.resolve(p);
    });
    this.connection.onRequest("workspace/configuration", () => []);
    this.connection.listen();
    this.initializationOptions = initializationOptions;
  }

  private readonly initializationOptions: Record<string, unknown>;

  async initialize(folders: string[] = []): Promise<unknown> {
    const result = await this.connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
      workspaceFolders: folders.map((f) => ({ uri: uri(f), name: f })),
      initializationOptions: this.initializationOptions,
    });
    await this.connection.sendNotification("initialized", {});
    return result;
  }

  /** Resolves with the next check of the project at `root` (an absolute path). */
  nextCheck(root: string): Promise<CheckedParams> {
    return new Promise((resolve) => this.waiters.push({ root, resolve }));
  }

  /** Resolves with the next diagnostics published for a file. */
  nextDiagnostics(file: string): Promise<Diagnostic[]> {
    return new Promise((resolve) => this.publishWaiters.push({ uri: uri(file), resolve }));
  }

  async addFolder(folder: string): Promise<void> {
    await this.connection.sendNotification("workspace/didChangeWorkspaceFolders", {
      event: { added: [{ uri: uri(folder), name: folder }], removed: [] },
    });
  }

  async open(file: string, text = readFileSync(file, "utf8")): Promise<void> {
    this.versions.set(file, 1);
    await this.connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: uri(file), languageId: "svc", version: 1, text },
    });
  }

  /** Replaces the whole text of an open document. */
  async change(file: string, text: string): Promise<void> {
    const version = (this.versions.get(file) ?? 1) + 1;
    this.versions.set(file, version);
    await this.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri: uri(file), version },
      contentChanges: [{ text }],
    });
  }

  async save(file: string): Promise<void> {
    await this.connection.sendNotification("textDocument/didSave", { textDocument: { uri: uri(file) } });
  }

  async configure(settings: Record<string, unknown>): Promise<void> {
    await this.connection.sendNotification("workspace/didChangeConfiguration", { settings });
  }

  async close(file: string): Promise<void> {
    await this.connection.sendNotification("textDocument/didClose", { textDocument: { uri: uri(file) } });
  }

  request<R>(method: string, file: string, line: number, character: number, extra: Record<string, unknown> = {}): Promise<R> {
    return this.connection.sendRequest(method, { textDocument: { uri: uri(file) }, position: { line, character }, ...extra });
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.process.once("exit", () => resolve()));
    await this.connection.sendRequest("shutdown");
    await this.connection.sendNotification("exit");
    await exited;
    this.connection.dispose();
  }
}

export function uri(file: string): string {
  return pathToFileURL(file).href;
}

/** The 0-based line and character of the first occurrence of `needle` in `text` (plus `skip` characters into it). */
export function positionOf(text: string, needle: string, skip = 0, from = 0): { line: number; character: number } {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`${JSON.stringify(needle)} is not in the text`);
  const offset = at + skip;
  const line = text.slice(0, offset).split("\n").length - 1;
  return { line, character: offset - (text.lastIndexOf("\n", offset - 1) + 1) };
}
