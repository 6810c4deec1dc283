// ts-morph through require: an ESM import of this CommonJS package first scans its 1 MB
// source for export names (cjs-module-lexer), ~100 ms of every cold build for nothing.

import { createRequire } from "node:module";

const tsMorph = createRequire(import.meta.url)("ts-morph") as typeof import("ts-morph");

export const { IndentationText, Project, QuoteKind, StructureKind, VariableDeclarationKind, ts } = tsMorph;
export type { SourceFile, StatementStructures, VariableStatementStructure } from "ts-morph";
