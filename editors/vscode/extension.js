// The VS Code side of svc: starts `svc lsp --stdio` for the workspace and hands it .svc
// files. Everything the editor shows beyond colors comes from the server.

const path = require("node:path");
const { workspace } = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

/** @type {LanguageClient | undefined} */
let client;

/** The svc command: the setting, else the project's own node_modules/.bin/svc, else `svc` on PATH. */
function serverCommand() {
  const configured = workspace.getConfiguration("svc").get("server.path") || "svc";
  if (configured !== "svc") return configured;
  const folder = workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (folder) {
    const local = path.join(folder, "node_modules", ".bin", process.platform === "win32" ? "svc.cmd" : "svc");
    try {
      require("node:fs").accessSync(local);
      return local;
    } catch {
      // not installed in the project: fall back to PATH
    }
  }
  return "svc";
}

exports.activate = async function activate(context) {
  const command = serverCommand();
  const server = { command, args: ["lsp", "--stdio"] };
  client = new LanguageClient(
    "svc",
    "svc",
    { run: server, debug: server },
    {
      // Pages and their loaders: the server reports their diagnostics (unknown template names, jq errors) as you type.
      documentSelector: [
        { scheme: "file", language: "svc" },
        { scheme: "file", pattern: "**/{page.html,layout.html,page.jq}" },
      ],
      initializationOptions: { liveDatabase: workspace.getConfiguration("svc").get("liveDatabase") === true },
      synchronize: {
        configurationSection: "svc",
        fileEvents: workspace.createFileSystemWatcher("**/{*.svc,svc.toml,page.html,page.jq,layout.html}"),
      },
    },
  );
  context.subscriptions.push(client);
  await client.start();
};

exports.deactivate = function deactivate() {
  return client?.stop();
};
