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
  badMediaType: d(
    "SVC7111",
    "error",
    "`respond type \"…\"` names something that is not a media type `type/subtype` (with optional `; name=value` parameters).",
    (written: string) => `"${written}" is not a media type`,
    () => 'write type/subtype, e.g. type "image/svg+xml" or type "text/calendar; charset=utf-8"; for plain text, HTML and CSV write text, html or csv',
  ),
  textBodyNotText: d(
    "SVC7112",
    "error",
    "A `respond text` (html, csv, or a non-JSON `type \"…\"`) answer is given a body that is not text.",
    (media: string, found: string) => `a \`respond ${media}\` answer's body must be text, found ${found}`,
    () => "answer a text value (result.field, a literal, input.headers.x, a + join), or answer JSON by leaving the media out",
  ),
};
