#!/usr/bin/env node
import { Builtins, Cli } from "clipanion";
import { tolerateClosedOutput } from "./closed-output.js";
import { BuildCommand } from "./commands/build.js";
import { CheckCommand } from "./commands/check.js";
import { DeployCommand } from "./commands/deploy.js";
import { DevCommand } from "./commands/dev.js";
import { FmtCommand } from "./commands/fmt.js";
import { LspCommand } from "./commands/lsp.js";
import { JobsCancelCommand, JobsListCommand, JobsRetryCommand } from "./commands/jobs.js";
import { VERSION } from "./version.js";

const cli = new Cli({ binaryLabel: "svc", binaryName: "svc", binaryVersion: VERSION });
cli.register(BuildCommand);
cli.register(CheckCommand);
cli.register(DeployCommand);
cli.register(DevCommand);
cli.register(FmtCommand);
cli.register(LspCommand);
cli.register(JobsListCommand);
cli.register(JobsRetryCommand);
cli.register(JobsCancelCommand);
cli.register(Builtins.HelpCommand);
cli.register(Builtins.VersionCommand);
tolerateClosedOutput();
void cli.runExit(process.argv.slice(2));
