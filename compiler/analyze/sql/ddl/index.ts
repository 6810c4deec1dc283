import type { Dialect, TableDdl } from "../../model/model.js";
import { tableDdl as mysql } from "./mysql.js";
import { tableDdl as postgres } from "./postgres.js";
import type { ResourceShape } from "./shared.js";
import { tableDdl as sqlite } from "./sqlite.js";

export type { ResourceShape } from "./shared.js";

/** The resource's table in every dialect, made at build time for the runtime to execute. */
export function allTableDdl(resource: ResourceShape): Partial<Record<Dialect, TableDdl>> {
  return { sqlite: sqlite(resource), postgres: postgres(resource), mysql: mysql(resource) };
}
