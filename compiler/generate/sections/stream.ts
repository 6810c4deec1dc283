// `respond csv|ndjson` to a query's rows (docs/language.md §2.4, "Streamed answers"): the
// route's StreamSpec, read by runtime/core/answer/stream: the format, the columns with what
// each holds, the query's statement and its values from the validated input.

import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { Model, RouteModel } from "../../analyze/model/model.js";
import { camelCase } from "../../analyze/shared/names.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { queryValues } from "./calls.js";

/** `streamGetExportCsv`: the StreamSpec of one route. */
export function streamConstName(names: Names, route: RouteModel): string {
  const base = camelCase(`stream_${route.method.toLowerCase()}_${route.path.replace(/[^A-Za-z0-9]+/g, "_")}`);
  return names.app(`stream:${route.method}:${route.path}`, base);
}

export function streamConst(model: Model, names: Names, route: RouteModel): StatementStructures {
  const stream = route.respond!.stream!;
  const t = route.target;
  const q = model.queries.find((x) => x.module === t.module && x.name === t.name)!;
  const input = names.input(q.module, q.name);
  const values = q.params.length === 0 ? `{\n${input}(input);\nreturn [];\n}` : `{\nconst args = ${input}(input);\nreturn [${queryValues(q)}];\n}`;
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    leadingTrivia: `// ${route.method} ${route.path}: \`${q.module}.${q.name}\`'s rows, streamed as ${stream.format.toUpperCase()}.\n`,
    declarations: [
      {
        name: streamConstName(names, route),
        type: "rt.StreamSpec",
        initializer: `{\nformat: ${JSON.stringify(stream.format)},\ncolumns: ${literal(stream.columns)},\nstmt: ${names.querySql(q.module, q.name)},\nvalues: (input) => ${values},\n}`,
      },
    ],
  };
}
