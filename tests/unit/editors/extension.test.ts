// editors/vscode is a working extension: its manifest points at files that exist and at
// the grammar's own scope, and activating it starts `svc lsp --stdio` for .svc files with
// the user's settings. VS Code and its client library are stood in for, recording what
// the extension asks of them.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, test } from "../../support/jest.js";
import { repoRoot } from "../../support/paths.js";

const DIR = path.join(repoRoot, "editors", "vscode");
const manifest = JSON.parse(readFileSync(path.join(DIR, "package.json"), "utf8"));

interface Started {
  id: string;
  server: { run: { command: string; args: string[] } };
  client: { documentSelector: unknown[]; initializationOptions: { liveDatabase: boolean } };
}

async function activate(settings: Record<string, unknown>): Promise<Started> {
  let started: Started | null = null;
  const vscode = {
    workspace: {
      getConfiguration: () => ({ get: (key: string) => settings[key] }),
      workspaceFolders: undefined,
      createFileSystemWatcher: (glob: string) => ({ glob }),
    },
  };
  class LanguageClient {
    constructor(id: string, _name: string, server: Started["server"], client: Started["client"]) {
      started = { id, server, client };
    }
    async start() {}
    async stop() {}
    dispose() {}
  }
  const module = { exports: {} as { activate(c: unknown): Promise<void> } };
  const stubs: Record<string, unknown> = { vscode, "vscode-languageclient/node": { LanguageClient } };
  const require = (name: string) => stubs[name] ?? (name.startsWith("node:") ? (globalThis as { process: NodeJS.Process }).process.getBuiltinModule(name) : undefined);
  runInNewContext(readFileSync(path.join(DIR, manifest.main), "utf8"), { module, exports: module.exports, require, process });
  await module.exports.activate({ subscriptions: [] });
  if (started === null) throw new Error("the extension started no client");
  return started;
}

describe("the VS Code extension", () => {
  test("its manifest names files that exist, and the grammar's scope", () => {
    expect(existsSync(path.join(DIR, manifest.main))).toBe(true);
    const [language] = manifest.contributes.languages;
    expect(language.extensions).toEqual([".svc"]);
    expect(existsSync(path.join(DIR, language.configuration))).toBe(true);
    const [grammar] = manifest.contributes.grammars;
    const raw = JSON.parse(readFileSync(path.join(DIR, grammar.path), "utf8"));
    expect(raw.scopeName).toBe(grammar.scopeName);
    expect(grammar.embeddedLanguages).toEqual({ "meta.embedded.block.sql": "sql" });
    expect(Object.keys(manifest.dependencies)).toEqual(["vscode-languageclient"]);
  });

  test("activation starts svc lsp --stdio for .svc files, with the live-database setting", async () => {
    const started = await activate({ "server.path": "/opt/svc/bin/svc", liveDatabase: true });
    expect(started.server.run).toEqual({ command: "/opt/svc/bin/svc", args: ["lsp", "--stdio"] });
    expect(started.client.documentSelector).toEqual([
      { scheme: "file", language: "svc" },
      { scheme: "file", pattern: "**/{page.html,layout.html,page.jq}" },
    ]);
    expect(started.client.initializationOptions).toEqual({ liveDatabase: true });
    const plain = await activate({});
    expect(plain.server.run.command).toBe("svc");
    expect(plain.client.initializationOptions).toEqual({ liveDatabase: false });
  });
});
