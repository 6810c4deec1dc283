// Writes docs/diagnostics.md from the catalog.
import { writeFileSync } from "node:fs";
import { diagnosticsMarkdown } from "../diagnostics/catalog.js";

writeFileSync(new URL("../../../docs/diagnostics.md", import.meta.url), diagnosticsMarkdown());
