// What generated code says about uploads (docs/language.md §2.7), kept here so the core's
// types.ts only names it: EndpointSpec, RouteBlockSpec and ServerSpec extend these.

import type { UploadsSpec } from "../uploads/index.js";

/** An endpoint (or a route-file block) that takes files, or answers one. */
export interface TakesFiles {
  /** The names of its `file` arguments: a file part of another name is a 415. Absent: it takes no file. */
  files?: ReadonlySet<string>;
  /** Its action returns a `file`: the answer is the stored file itself (runtime/uploads/serve.ts), a 404 for null. */
  answersFile?: true;
}

export interface SpecUploads {
  /** svc.toml `[uploads]`, defaults filled in; present when an action takes a `file` or a resource stores one. */
  uploads?: UploadsSpec;
}
