#!/usr/bin/env node
import { Builtins, Cli } from "clipanion";
import { BuildCommand } from "./commands/build.js";
import { CheckCommand } from "./commands/check.js";
import { VERSION } from "./version.js";

const cli = new Cli({ binaryLabel: "svc", binaryName: "svc", binaryVersion: VERSION });
cli.register(BuildCommand);
cli.register(CheckCommand);
cli.register(Builtins.HelpCommand);
cli.register(Builtins.VersionCommand);
void cli.runExit(process.argv.slice(2));
