// svc.toml `[uploads]` (docs/operations.md, Uploads) made into the model's uploads: present
// when an action takes a `file` or a resource stores one (docs/language.md §2.7), with
// every default filled in, so the server never guesses.

import type { ProjectConfig } from "../../project/config.js";
import type { ActionModel, ResourceModel } from "../model/model.js";

export const UPLOADS_TABLE = "svc_uploads";

export interface UploadsModel {
  store: "disk" | "database";
  dir: string;
  maxFileSize: number;
  maxFiles: number;
  maxRequestSize: number;
}

export const UPLOAD_DEFAULTS: UploadsModel = {
  store: "disk",
  dir: "data/uploads",
  maxFileSize: 10 * 1024 * 1024,
  maxFiles: 10,
  maxRequestSize: 50 * 1024 * 1024,
};

export function uploadsModel(config: ProjectConfig, actions: readonly ActionModel[], resources: readonly ResourceModel[]): UploadsModel | null {
  const used = actions.some((a) => a.params.some((p) => p.type === "file")) || resources.some((r) => r.fields.some((f) => f.type === "file"));
  if (!used) return null;
  const c = config.uploads;
  return {
    store: c.store ?? UPLOAD_DEFAULTS.store,
    dir: c.dir ?? UPLOAD_DEFAULTS.dir,
    maxFileSize: c.max_file_size ?? UPLOAD_DEFAULTS.maxFileSize,
    maxFiles: c.max_files ?? UPLOAD_DEFAULTS.maxFiles,
    maxRequestSize: c.max_request_size ?? UPLOAD_DEFAULTS.maxRequestSize,
  };
}

/** The `file` arguments of an action, by name: what its endpoint takes from a multipart body. */
export function fileParams(a: ActionModel): string[] {
  return a.params.filter((p) => p.type === "file").map((p) => p.name);
}

/** Whether an action answers a stored file: its `return`s give a `file`. */
export function answersFile(a: ActionModel): boolean {
  return a.returns.kind === "scalar" && a.returns.type === "file";
}
