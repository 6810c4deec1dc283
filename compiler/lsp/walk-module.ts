// Fills the symbol table from parsed module and route files: first every declaration of
// every module (a body may call what a later file declares), then each body in order,
// with the scopes of lets and loop variables as the language has them (docs/language.md §2.3).

import type {
  Block,
  Expr,
  Ident,
  ModuleFile,
  Param,
  RouteFile,
  SqlBody,
  Stmt,
  TypeRef,
  FieldChange,
} from "../parse/index.js";
import type { PositionMap } from "../parse/positions.js";
import { BUILTINS } from "./analyzed.js";
import type { Declaration, Occurrence, SymbolIndex, SymbolKind } from "./symbols.js";
import { walkSql } from "./walk-sql.js";

/** name → key of what the name means at this point of a body. */
export type Scope = Map<string, string>;

interface ModuleNames {
  /** query/action/fn name → kind. */
  decls: Map<string, SymbolKind>;
  /** resource name → its field names. */
  resources: Map<string, Set<string>>;
  types: Set<string>;
}

export class ModuleWalker {
  readonly modules = new Map<string, ModuleNames>();
  private file = "";
  private module = "";
  /** Which resource a local holds a row of (`let t = get task(id)`), to find `t.title`'s field. */
  private readonly rowOf = new Map<string, string>();

  constructor(
    private readonly index: SymbolIndex,
    files: readonly ModuleFile[],
  ) {
    for (const f of files) {
      const name = moduleName(f);
      if (!this.modules.has(name)) this.modules.set(name, { decls: new Map(), resources: new Map(), types: new Set() });
    }
  }

  declare(f: ModuleFile): void {
    this.file = f.file;
    this.module = moduleName(f);
    const names = this.modules.get(this.module)!;
    if (f.module) this.occ(`M:${f.module.name}`, "module", f.module, false);
    for (const d of f.decls) {
      switch (d.kind) {
        case "Resource": {
          this.decl(`R:${this.module}.${d.name.name}`, "resource", d.name, d.span, d.doc, null);
          const fields = new Set<string>();
          for (const field of d.fields) {
            fields.add(field.name.name);
            const change = field.change ? ` ${changeText(field.change)}` : "";
            this.decl(`F:${this.module}.${d.name.name}.${field.name.name}`, "field", field.name, field.span, field.doc, d.name.name, typeText(field.type) + change);
          }
          names.resources.set(d.name.name, fields);
          break;
        }
        case "Type":
          names.types.add(d.name.name);
          this.decl(`T:${this.module}.${d.name.name}`, "type", d.name, d.span, d.doc, null);
          for (const p of d.members) this.decl(`P:${this.module}.${d.name.name}.${p.name.name}`, "param", p.name, p.span, null, d.name.name, typeText(p.type));
          break;
        case "Query":
        case "Action":
        case "Fn": {
          const kind = d.kind === "Query" ? "query" : d.kind === "Action" ? "action" : "fn";
          names.decls.set(d.name.name, kind);
          this.decl(`D:${this.module}.${d.name.name}`, kind, d.name, d.span, d.doc, null);
          break;
        }
        default:
          break;
      }
    }
  }

  bodies(f: ModuleFile, positions: PositionMap): void {
    this.file = f.file;
    this.module = moduleName(f);
    this.rowOf.clear();
    for (const d of f.decls) {
      switch (d.kind) {
        case "Resource":
          for (const field of d.fields) {
            this.typeRef(field.type);
            if (field.default) this.expr(field.default, new Map());
          }
          for (const i of d.indexes) for (const c of i.columns) this.fieldRef(d.name.name, c.name);
          for (const k of d.keys) for (const c of k.columns) this.fieldRef(d.name.name, c);
          break;
        case "Type":
          for (const p of d.members) this.typeRef(p.type);
          break;
        case "Query": {
          const scope = this.params(d.name.name, d.params);
          this.sql(d.sql, d.name.name, scope, positions);
          break;
        }
        case "Action":
          this.block(d.body, this.params(d.name.name, d.params), d.name.name, positions);
          break;
        case "Fn": {
          const scope: Scope = new Map();
          for (const p of d.params) {
            const key = `P:${this.module}.${d.name.name}.${p.name.name}`;
            this.decl(key, "param", p.name, p.span, null, d.name.name, p.type ? typeText(p.type) : undefined);
            if (p.type) this.typeRef(p.type);
            scope.set(p.name.name, key);
          }
          this.block(d.body, scope, d.name.name, positions);
          break;
        }
        case "Route":
          this.target(this.module, d.target);
          if (d.respond) {
            if (d.respond.body) this.expr(d.respond.body, new Map());
            for (const h of d.respond.headers) this.expr(h.value, new Map());
          }
          break;
        case "Webhook":
          for (const e of d.fields) {
            if (e.key.name === "handler" && e.value.kind === "Name") {
              this.target(this.module, { name: e.value.name, span: e.value.span });
            } else {
              this.expr(e.value, new Map());
            }
          }
          break;
      }
    }
  }

  routeFile(f: RouteFile): void {
    this.file = f.file;
    for (const b of f.blocks) {
      for (const s of b.steps) {
        if (s.kind === "DataStep") {
          this.occ(`M:${s.module.name}`, "module", s.module, false);
          this.target(s.module.name, s.target);
          for (const a of s.args) {
            // `{ word: … }` names an argument of the step's query or action.
            if (this.modules.get(s.module.name)?.decls.has(s.target.name)) this.occ(`P:${s.module.name}.${s.target.name}.${a.key.name}`, "param", a.key, false);
            this.expr(a.value, new Map());
          }
        } else if (s.kind === "Redirect") {
          this.expr(s.to, new Map());
        } else {
          if (s.body) this.expr(s.body, new Map());
          for (const h of s.headers) this.expr(h.value, new Map());
        }
      }
    }
  }

  // ---------------------------------------------------------------- bodies

  private params(owner: string, params: readonly Param[]): Scope {
    const scope: Scope = new Map();
    for (const p of params) {
      const key = `P:${this.module}.${owner}.${p.name.name}`;
      this.decl(key, "param", p.name, p.span, null, owner, typeText(p.type));
      this.typeRef(p.type);
      if (p.default) this.expr(p.default, scope);
      scope.set(p.name.name, key);
    }
    return scope;
  }

  private block(b: Block, outer: Scope, owner: string, positions: PositionMap): void {
    const scope: Scope = new Map(outer);
    for (const s of b.stmts) this.stmt(s, scope, owner, positions);
  }

  private stmt(s: Stmt, scope: Scope, owner: string, positions: PositionMap): void {
    switch (s.kind) {
      case "Let":
        this.expr(s.value, scope);
        this.local(s.name, scope, s.span, owner);
        if (s.value.kind === "RecordOp" && s.value.op !== "delete") this.rowOf.set(this.localKey(s.name), s.value.resource.name);
        break;
      case "Collect":
        this.stmt(s.loop, scope, owner, positions);
        this.local(s.name, scope, s.span, owner);
        break;
      case "For": {
        this.expr(s.list, scope);
        const inner: Scope = new Map(scope);
        this.local(s.name, inner, s.span, owner);
        this.block(s.body, inner, owner, positions);
        break;
      }
      case "If":
        this.expr(s.cond, scope);
        this.block(s.then, scope, owner, positions);
        if (s.else?.kind === "Block") this.block(s.else, scope, owner, positions);
        else if (s.else) this.stmt(s.else, new Map(scope), owner, positions);
        break;
      case "Fail":
        this.expr(s.message, scope);
        break;
      case "Return":
        if (s.value) this.expr(s.value, scope);
        break;
      case "ExprStmt":
        this.expr(s.expr, scope);
        break;
      case "Yield":
        this.expr(s.value, scope);
        break;
      case "SqlStmt":
        this.sql(s.sql, owner, scope, positions);
        break;
    }
  }

  private expr(e: Expr, scope: Scope): void {
    switch (e.kind) {
      case "Name": {
        const key = scope.get(e.name);
        if (key) this.occ(key, key.startsWith("L:") ? "local" : "param", { name: e.name, span: e.span }, false);
        else this.callee({ name: e.name, span: e.span });
        break;
      }
      case "Member":
        if (e.object.kind === "Name" && e.object.name === "credentials" && !scope.has("credentials")) {
          this.occ(`C:${e.property.name}`, "credential", e.property, false);
          break;
        }
        this.expr(e.object, scope);
        if (e.object.kind === "Name") {
          const resource = this.rowOf.get(scope.get(e.object.name) ?? "");
          if (resource) this.fieldRef(resource, e.property);
        }
        break;
      case "Object":
        for (const entry of e.entries) this.expr(entry.value, scope);
        break;
      case "Array":
        for (const item of e.items) this.expr(item, scope);
        break;
      case "Binary":
        this.expr(e.left, scope);
        this.expr(e.right, scope);
        break;
      case "Unary":
        this.expr(e.operand, scope);
        break;
      case "Call": {
        const kind = this.callee(e.callee);
        for (const a of e.args) {
          if (a.name && kind !== null && kind !== "builtin") this.occ(`P:${this.module}.${e.callee.name}.${a.name.name}`, "param", a.name, false);
          this.expr(a.value, scope);
        }
        break;
      }
      case "RecordOp": {
        const r = e.resource.name;
        if (this.modules.get(this.module)?.resources.has(r)) this.occ(`R:${this.module}.${r}`, "resource", e.resource, false);
        if (e.key) this.expr(e.key, scope);
        for (const entry of [...(e.keyFields ?? []), ...(e.fields ?? [])]) {
          this.fieldRef(r, entry.key);
          this.expr(entry.value, scope);
        }
        break;
      }
      default:
        break;
    }
  }

  /** A called name: a query, action or fn of this module, else a built-in; null when neither. */
  private callee(name: Ident): SymbolKind | null {
    const kind = this.modules.get(this.module)?.decls.get(name.name);
    if (kind) {
      this.occ(`D:${this.module}.${name.name}`, kind, name, false);
      return kind;
    }
    if (Object.prototype.hasOwnProperty.call(BUILTINS, name.name)) {
      this.occ(`B:${name.name}`, "builtin", name, false);
      return "builtin";
    }
    return null;
  }

  private sql(body: SqlBody, owner: string, scope: Scope, positions: PositionMap): void {
    const names = this.modules.get(this.module)!;
    this.index.sqlRegions.push({ file: this.file, module: this.module, owner, start: body.span.start.offset, end: body.span.end.offset });
    walkSql(body, positions, names.resources, (key, kind, name) => {
      const found = kind === "param" ? scope.get(key) : `${kind === "resource" ? "R" : "F"}:${this.module}.${key}`;
      if (found) this.occ(found, kind === "param" ? (found.startsWith("L:") ? "local" : "param") : kind, name, false, true);
    });
  }

  // ---------------------------------------------------------------- names

  private target(module: string, name: Ident): void {
    const kind = this.modules.get(module)?.decls.get(name.name);
    if (kind) this.occ(`D:${module}.${name.name}`, kind, name, false);
  }

  private fieldRef(resource: string, name: Ident): void {
    if (this.modules.get(this.module)?.resources.get(resource)?.has(name.name)) {
      this.occ(`F:${this.module}.${resource}.${name.name}`, "field", name, false);
    }
  }

  private typeRef(t: TypeRef): void {
    if (this.modules.get(this.module)?.types.has(t.name.name)) this.occ(`T:${this.module}.${t.name.name}`, "type", t.name, false);
    if (t.item) this.typeRef(t.item);
  }

  private localKey(name: Ident): string {
    return `L:${this.file}:${name.span.start.offset}`;
  }

  private local(name: Ident, scope: Scope, span: Declaration["span"], owner: string): void {
    const key = this.localKey(name);
    this.decl(key, "local", name, span, null, owner);
    scope.set(name.name, key);
  }

  private occ(key: string, kind: SymbolKind, name: Ident, decl: boolean, sql?: true): void {
    const o: Occurrence = { key, name: name.name, kind, file: this.file, span: name.span, decl };
    if (sql) o.sql = true;
    this.index.add(o);
  }

  private decl(
    key: string,
    kind: SymbolKind,
    name: Ident,
    span: Declaration["span"],
    doc: string | null,
    parent: string | null,
    typeText?: string,
  ): void {
    const occurrence: Occurrence = { key, name: name.name, kind, file: this.file, span: name.span, decl: true };
    const d: Declaration = { occurrence, module: this.module, parent, span, doc };
    if (typeText !== undefined) d.typeText = typeText;
    this.index.declare(d);
  }
}

/** A module file's module: its header's name, else its folder's (a missing header is SVC1005). */
export function moduleName(f: ModuleFile): string {
  return f.module?.name ?? f.file.split("/").slice(-2, -1)[0] ?? "";
}

/** A type as written: `text?`, `enum(a, b)`, `list<int> max 10`. */
/** A field's declared change as written, SQL elided: `renamed from title changed from text using (…) lossy`. */
function changeText(c: FieldChange): string {
  const parts: string[] = [];
  if (c.renamedFrom) parts.push(`renamed from ${c.renamedFrom.name}`);
  if (c.changedFrom) parts.push(`changed from ${typeText(c.changedFrom)}`);
  if (c.using) parts.push("using (…)");
  if (c.back) parts.push("back (…)");
  if (c.lossy) parts.push("lossy");
  if (c.backfill) parts.push("value" in c.backfill ? "backfill …" : "backfill (…)");
  return parts.join(" ");
}

export function typeText(t: TypeRef): string {
  let s = t.item ? `list<${typeText(t.item)}>` : t.name.name;
  if (t.values.length) s += `(${t.values.map((v) => v.name).join(", ")})`;
  if (t.max) s += ` max ${t.max.value}`;
  if (t.absent) s += "??";
  else if (t.nullable) s += "?";
  return s;
}
