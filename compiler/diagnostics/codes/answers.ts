// Answers of any media type, their streaming, and object literals written the JavaScript
// way (docs/language.md §2.4 "Answers (respond)", §4): SVC7110–SVC7129. Codes are never reused.

import { defineDiagnostic as d } from "../diagnostic.js";

export const answerCodes = {
  objectSpread: d(
    "SVC7110",
    "error",
    "An object literal spreads a value (`{ ...result }`); svc objects list their entries.",
    (what: string) => `\`...${what}\` (spreading a value into an object) is not part of svc`,
    (what: string) =>
      `name each entry (\`{ key: ${what}.member, … }\`), or give \`${what}\` alone to answer it as it is`,
  ),
};
