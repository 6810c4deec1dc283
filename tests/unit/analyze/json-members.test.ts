// Members of a json value meeting a typed slot get a run-time check naming the member path
// (issue 15 part 10); a member written to a json field, compared with `==`, returned or
// passed to `coalesce` does not.

import { describe, expect, test } from "../../support/jest.js";
import type { IrExpr, IrStmt } from "../../../compiler/analyze/model/model.js";
import type { AuthConfig } from "../../../compiler/project/config/schema.js";
import { TASK, analyzeText } from "./analyze.js";

const RESOURCE = `${TASK}
resource doc {
  id: id
  name: text
  body: json?
  at: timestamp?
}
`;

function action(body: string, params = "d: json", auth?: AuthConfig) {
  const r = analyzeText(`${RESOURCE}\naction a(${params}) {\n${body}\n}\n`, { auth });
  // A public action answering json is the SVC2090 warning (openapi.json cannot type it); nothing else.
  expect(r.diagnostics.filter((d) => d.code !== "SVC2090")).toEqual([]);
  return r.model.actions.find((x) => x.name === "a")!.body;
}

/** Every `expect` in an action body, as `as/orNull/path`. */
function expects(stmts: IrStmt[]): string[] {
  const out: string[] = [];
  const visit = (e: IrExpr | null | undefined): void => {
    if (!e) return;
    if (e.kind === "expect") out.push(`${e.as}${e.orNull ? "?" : ""} ${e.path}`);
    for (const v of Object.values(e)) {
      if (v && typeof v === "object" && "kind" in v && "type" in v) visit(v as IrExpr);
      if (Array.isArray(v)) for (const x of v) visit("type" in x ? (x as IrExpr) : (x as { value: IrExpr }).value);
    }
  };
  const walk = (list: IrStmt[]): void => {
    for (const s of list) {
      if (s.kind === "let") visit(s.value);
      else if (s.kind === "if") (visit(s.cond), walk(s.then), walk(s.else));
      else if (s.kind === "fail") visit(s.message);
      else if (s.kind === "return") visit(s.value);
      else if (s.kind === "expr") visit(s.expr);
      else if (s.kind === "sql") s.args.forEach(visit);
    }
  };
  walk(stmts);
  return out;
}

describe("json members in typed slots", () => {
  test("a member's type names its path, through lets", () => {
    const body = action(`let issue = d.issue\nlet t = issue.title\nreturn t`);
    expect((body[1] as Extract<IrStmt, { kind: "let" }>).value.type).toEqual({ kind: "unknown", from: "d.issue.title" });
  });

  test("writes check against the field's type; json fields and enum fields keep their own rules", () => {
    const body = action(
      `let t = d.title\nif t == null { fail "no title" }\n` +
        `return insert task { title: t, points: d.points, note: d.note, status: d.status }`,
    );
    expect(expects(body)).toEqual(["text d.title", "int d.points", "text? d.note"]);
    const write = (body[2] as Extract<IrStmt, { kind: "return" }>).value as Extract<IrExpr, { op: "insert" }>;
    expect(write.fields.map((f) => [f.field, f.check])).toEqual([
      ["title", "none"],
      ["points", "none"],
      ["note", "none"],
      ["status", "enum"],
    ]);
    expect(expects(action(`return insert doc { name: "n", body: d.body, at: d.at }`))).toEqual(["timestamp? d.at"]);
  });

  test("builtins, arithmetic, ordering and concatenation check; equality and coalesce do not", () => {
    const body = action(
      `let a = trim(d.a)\nlet b = len(d.b)\nlet c = d.c + 1\nlet e = -d.e\nlet f = d.f > 3\n` +
        `let g = "#" + d.g\nlet h = d.h == "x"\nlet i = coalesce(d.i, "z")\nlet j = d.j < "m"\nreturn { a: a, j: d.k }`,
    );
    expect(expects(body)).toEqual(["text? d.a", "sized d.b", "float d.c", "float d.e", "float d.f", "text? d.g", "text d.j"]);
  });

  test("the key of get, update and delete checks", () => {
    const body = action(`let a = get task(d.a)\nlet b = delete task(d.b)\nreturn update task(d.c) { note: "x" }`);
    expect(expects(body)).toEqual(["id d.a", "id d.b", "id d.c"]);
  });

  test("query arguments, sql bindings and fail messages check", () => {
    const body = action(`let x = get_task(id: d.id)\nlet n = d.note\nsql { UPDATE task SET note = @n }\nfail d.why`);
    expect(expects(body)).toEqual(["id d.id", "text? d.note", "text d.why"]);
  });

  test("typed parameters and rows get no checks", () => {
    const body = analyzeText(`${RESOURCE}\naction a(s: text, id: id) {\nlet t = get task(id)\nif t == null { fail 404 "x" }\nreturn update task(id) { title: trim(s), points: t.points + 1 }\n}\n`);
    expect(expects(body.model.actions[0].body)).toEqual([]);
  });

  test("identity: the given password and a token's or session's subject check; so do json claims, named by their path", () => {
    const identity: AuthConfig = { jwt: { secret: { credential: "jwt" }, claims: { team: "json", email: "text" } }, sessions: {} };
    const body = action(
      `let ok = verify_password(null, d.password)\nlet t = issue_token(d.sub)\nlet s = start_session(d.who)\n` +
        `return { ok: ok, t: t, s: s, team: trim(auth.claims.team), email: trim(auth.claims.email) }`,
      "d: json",
      identity,
    );
    expect(expects(body)).toEqual(["text? d.password", "text d.sub", "text d.who", "text? auth.claims.team"]);
    // Without declared claims, every claim is a member of json.
    const undeclared = action(`return lower(auth.claims.team)`, "", { jwt: { secret: { credential: "jwt" } } });
    expect(expects(undeclared)).toEqual(["text? auth.claims.team"]);
  });
});
