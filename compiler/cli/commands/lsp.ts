import { Command, Option } from "clipanion";

export class LspCommand extends Command {
  static override paths = [["lsp"]];
  static override usage = Command.Usage({
    description: "Run the language server (diagnostics, hover, definition, references, rename, completion) for editors.",
    details: `
      Speaks the Language Server Protocol on standard input and output. Editors start it themselves: see docs/editor.md
      for VS Code, Neovim and Helix. Diagnostics are exactly \`svc check\`'s; set the initialization option
      \`liveDatabase: true\` to also check SQL against svc.toml's database, as \`svc check --db\` does.
    `,
    examples: [["Start the server for an editor", "svc lsp --stdio"]],
  });

  stdio = Option.Boolean("--stdio", false, { description: "Talk over standard input and output (the only transport, and the default)" });

  async execute(): Promise<number> {
    const { startServer } = await import("../../lsp/server.js");
    const connection = startServer(process.stdin, process.stdout);
    // The protocol's exit notification ends the process; so does the editor closing the pipe.
    await new Promise<void>((resolve) => {
      connection.onExit(() => resolve());
      process.stdin.on("end", () => resolve());
    });
    return 0;
  }
}
