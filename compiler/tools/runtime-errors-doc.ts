// Writes docs/runtime-errors.md from the runtime's error-code catalog.
import { writeFileSync } from "node:fs";
import { runtimeErrorsMarkdown } from "./runtime-errors-markdown.js";

writeFileSync(new URL("../../../docs/runtime-errors.md", import.meta.url), runtimeErrorsMarkdown());
