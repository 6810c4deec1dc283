import type { Position, SqlBody } from "../../../compiler/parse/ast.js";
import type { FieldModel, IndexModel, ParamModel, ScalarType } from "../../../compiler/analyze/model/model.js";
import type { ResourceShape } from "../../../compiler/analyze/sql/ddl/index.js";

// Hand-made inputs for the SQL tests: SqlBody values with spans as the parser makes
// them, and the `task` resource of docs/language.md §2.1.

/** Where test bodies start in their imaginary file: line 7, column 3 (after `  ` indentation and `{`). */
export const BODY_START: Position = { offset: 120, line: 7, column: 3 };

/** Position of `i` inside `text`, for a body starting at `start`. */
export function positionAt(text: string, i: number, start: Position = BODY_START): Position {
  const before = text.slice(0, i);
  const lines = before.split("\n");
  const line = start.line + lines.length - 1;
  const column = lines.length === 1 ? start.column + i : lines[lines.length - 1].length + 1;
  return { offset: start.offset + i, line, column };
}

/**
 * An SqlBody as the parser would make it: every `@name` outside '…' strings, "…"
 * identifiers and -- comments is listed with its span.
 */
export function sqlBody(text: string, start: Position = BODY_START): SqlBody {
  const params: SqlBody["params"] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      i = close < 0 ? text.length : close + 1;
    } else if (c === "-" && text[i + 1] === "-") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl;
    } else if (c === "@" && /[A-Za-z_]/.test(text[i + 1] ?? "")) {
      const m = /^@([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i))!;
      params.push({ name: m[1], span: { start: positionAt(text, i, start), end: positionAt(text, i + m[0].length, start) } });
      i += m[0].length;
    } else i++;
  }
  return { kind: "Sql", text, span: { start, end: positionAt(text, text.length, start) }, params };
}

/** The text a span covers, read back from a body's text. */
export function spannedText(body: SqlBody, span: { start: Position; end: Position }): string {
  return body.text.slice(span.start.offset - body.span.start.offset, span.end.offset - body.span.start.offset);
}

export function field(name: string, type: ScalarType, extra: Partial<FieldModel> = {}): FieldModel {
  return { name, type, enumValues: [], nullable: false, default: null, doc: null, ...extra };
}

export function param(name: string, type: ScalarType, extra: Partial<ParamModel> = {}): ParamModel {
  const p: ParamModel = { name, type, enumValues: [], nullable: false, default: undefined, required: true, ...extra };
  p.required = !p.nullable && p.default === undefined;
  return p;
}

export const STATUS_INDEX: IndexModel = { name: "task_status_idx", unique: false, columns: [{ name: "status", desc: false }] };
export const CREATED_INDEX: IndexModel = {
  name: "task_created_at_id_idx",
  unique: false,
  columns: [
    { name: "created_at", desc: true },
    { name: "id", desc: true },
  ],
};

/** `resource task` of docs/language.md §2.1; `indexes` defaults to the two it declares. */
export function taskResource(indexes: IndexModel[] = [STATUS_INDEX, CREATED_INDEX]): ResourceShape {
  return {
    module: "task_tracker",
    name: "task",
    doc: null,
    primaryKey: ["id"],
    fields: [
      field("id", "id"),
      field("title", "text"),
      field("description", "text", { nullable: true }),
      field("priority", "enum", {
        enumValues: ["low", "medium", "high", "critical"],
        default: { kind: "value", value: "medium" },
      }),
      field("assignee", "text", { nullable: true }),
      field("status", "enum", {
        enumValues: ["open", "in_progress", "blocked", "done", "cancelled"],
        default: { kind: "value", value: "open" },
      }),
      field("created_at", "timestamp", { default: { kind: "now" } }),
      field("completed_at", "timestamp", { nullable: true }),
    ],
    indexes,
  };
}

/** A second resource for joins: comments on tasks. */
export function commentResource(indexes: IndexModel[] = []): ResourceShape {
  return {
    module: "task_tracker",
    name: "comment",
    doc: null,
    primaryKey: ["id"],
    fields: [
      field("id", "id"),
      field("task_id", "id"),
      field("body", "text"),
      field("likes", "int", { default: { kind: "value", value: 0 } }),
    ],
    indexes,
  };
}
