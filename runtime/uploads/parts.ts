// What the core's body reader needs to know of uploads: whether a body is multipart, and
// where the file parts of one go (runtime/body.ts hands such a body to Uploads.read).

import type { IncomingMessage } from "node:http";
import { mediaType } from "../core/media-type.js";
import type { Uploads } from "./index.js";

/** Where a multipart body's file parts go, for something that takes files. */
export interface FileParts {
  uploads: Uploads;
  accepts: ReadonlySet<string>;
}

export function isMultipart(req: IncomingMessage): boolean {
  const header = req.headers["content-type"];
  return header !== undefined && mediaType(header) === "multipart/form-data";
}
