// LSP formatting is `svc fmt` (compiler/fmt): one edit that replaces the whole document
// with its canonical layout, none when it is already laid out, and none when it does not
// parse (its diagnostics are already in front of the user; guessing a layout would move
// them).

import type { TextEdit } from "vscode-languageserver";
import { FormatError, formatSvc } from "../fmt/index.js";

export function formatDocument(text: string, file: string): TextEdit[] {
  if (!file.endsWith(".svc")) return [];
  let formatted: string;
  try {
    formatted = formatSvc(text, file);
  } catch (e) {
    if (e instanceof FormatError) return [];
    throw e;
  }
  if (formatted === text) return [];
  const lines = text.split("\n");
  const end = { line: lines.length - 1, character: lines[lines.length - 1].length };
  return [{ range: { start: { line: 0, character: 0 }, end }, newText: formatted }];
}
