import { defineDiagnostic as d } from "../diagnostic.js";

/** File uploads (docs/language.md §2.7): SVC6040–SVC6059. */
export const uploadCodes = {
  fileQueryParam: d(
    "SVC6040",
    "error",
    "A query parameter cannot be a `file`: a query binds values to SQL, and a file arrives only in an action's multipart body.",
    (name: string) => `query parameter \`${name}\` cannot be of type \`file\``,
    () => "take the file in an action (`action attach(photo: file) { … }`) and store it in a `file` field",
  ),
  fileInShape: d(
    "SVC6041",
    "error",
    "A list item or a record type's member cannot be a `file`: a file is one part of a multipart body, named by an argument.",
    (what: string) => `${what} cannot be of type \`file\``,
    () => "declare one `file` argument per file part (`front: file, back: file?`)",
  ),
} as const;
