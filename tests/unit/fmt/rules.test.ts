// `svc fmt`'s layout rules (docs/language.md §7, Layout), one by one, on module files and
// route files; every expected output is also checked to be a fixed point.

import { describe, expect, test } from "../../support/jest.js";
import { formatSvc, FormatError } from "../../../compiler/fmt/index.js";

/** Formats `source` as `file`, and checks that formatting the result changes nothing. */
function fmt(source: string, file = "m.svc"): string {
  const once = formatSvc(source, file);
  expect(formatSvc(once, file)).toBe(once);
  return once;
}

const lines = (...ls: string[]): string => `${ls.join("\n")}\n`;

describe("indentation", () => {
  test("one level per open bracket; a closer goes back to its opener's line", () => {
    expect(fmt("module m\naction a() {\nlet x = f(\n1,\n2\n)\n      return [\n x,\n]\n}")).toBe(
      lines("module m", "action a() {", "  let x = f(", "    1,", "    2", "  )", "  return [", "    x,", "  ]", "}"),
    );
  });

  test("brackets opened on one line count once: `})` closes both", () => {
    expect(fmt("module m\naction a() {\nreturn f({\na: 1,\n})\n}")).toBe(
      lines("module m", "action a() {", "  return f({", "    a: 1,", "  })", "}"),
    );
  });

  test("a line that continues an item is indented one more level", () => {
    expect(fmt("module m\naction a() {\nlet x = 1 +\n2 +\n3\nreturn\nx\n}")).toBe(
      lines("module m", "action a() {", "  let x = 1 +", "    2 +", "    3", "  return", "    x", "}"),
    );
    const route = 'route POST "/x" => a respond 201 { id: result }\nheader "Location" = "/x"';
    expect(fmt(`module m\n${route}`)).toBe(lines("module m", ...route.replace("\n", "\n  ").split("\n")));
  });

  test("tabs and odd indentation become two spaces a level", () => {
    expect(fmt("module m\nresource r {\n\t\tid: id\n      name: text\n}")).toBe(
      lines("module m", "resource r {", "  id: id", "  name: text", "}"),
    );
  });
});

describe("line breaks", () => {
  test("the author's breaks stay; blank lines fold to one, none at a block's edges or the file's", () => {
    expect(fmt("\n\nmodule m\n\n\n\naction a() {\n\nlet x = 1\n\n\nreturn x\n\n}\n\n\n")).toBe(
      lines("module m", "", "action a() {", "  let x = 1", "", "  return x", "}"),
    );
  });

  test("a one-line block stays on one line", () => {
    const src = lines("module m", "action a(x: int) {", '  if x < 1 { fail 422 "small" }', "  return { a: x, b: [1, 2] }", "}");
    expect(fmt(src)).toBe(src);
  });

  test("an opening brace joins the line it continues, an SQL body's too", () => {
    expect(fmt("module m\naction a()\n{\nif true\n{\nreturn 1\n}\n}\nquery q() one\n{ SELECT 1 }")).toBe(
      lines("module m", "action a() {", "  if true {", "    return 1", "  }", "}", "query q() one { SELECT 1 }"),
    );
  });

  test("a brace that starts an item stays where it is", () => {
    expect(fmt("module m\naction a() {\nreturn [\n{ a: 1 },\n{ a: 2 }\n]\n}")).toBe(
      lines("module m", "action a() {", "  return [", "    { a: 1 },", "    { a: 2 }", "  ]", "}"),
    );
  });

  test("`else` joins the `}` before it", () => {
    expect(fmt("module m\naction a(x: int) {\nif x > 1 {\nreturn 1\n}\nelse if x > 0 {\nreturn 2\n}\nelse\n{\nreturn 3\n}\n}")).toBe(
      lines(
        "module m",
        "action a(x: int) {",
        "  if x > 1 {",
        "    return 1",
        "  } else if x > 0 {",
        "    return 2",
        "  } else {",
        "    return 3",
        "  }",
        "}",
      ),
    );
  });

  test("in a bracket opened with a line break, each item starts a line and the closer stands alone", () => {
    expect(fmt("module m\nresource r {\nid: id name: text unique (name) }\naction a() {\nlet x = 1 return x }")).toBe(
      lines("module m", "resource r {", "  id: id", "  name: text", "  unique (name)", "}", "action a() {", "  let x = 1", "  return x", "}"),
    );
  });

  test("items after a comma may share a line", () => {
    const src = lines("GET {", "  invoke m.list {", "    tag: input.query.tag, author: input.query.author,", "    limit: 10", "  }", "  respond result", "}");
    expect(fmt(src, "app/api/x/route.svc")).toBe(src);
  });

  test("declarations on one line are split, the module line too", () => {
    expect(fmt("module m resource r { id: id } action a() { return 1 }")).toBe(
      lines("module m", "resource r { id: id }", "action a() { return 1 }"),
    );
  });
});

describe("spaces within a line", () => {
  test("operators, commas, colons and braces", () => {
    expect(fmt("module m\naction a(x:int,y : text?)requires auth{let z=-x+2*(x-1)>=3 and not(x==1)\nreturn {a:z,b:[1 ,2],c:{}}}")).toBe(
      lines(
        "module m",
        "action a(x: int, y: text?) requires auth {",
        "  let z = -x + 2 * (x - 1) >= 3 and not (x == 1)",
        "  return { a: z, b: [1, 2], c: {} }",
        "}",
      ),
    );
  });

  test("calls and declarations hug their parenthesis; words that open a construct do not", () => {
    expect(fmt("module m\nresource r { id: id\nkind: enum ( a, b )\nunique(kind) index(id desc) }\naction a (id: id) { return max (get r (id).kind, coalesce (null, 1)) }")).toBe(
      lines(
        "module m",
        "resource r {",
        "  id: id",
        "  kind: enum(a, b)",
        "  unique (kind)",
        "  index (id desc)",
        "}",
        "action a(id: id) { return max(get r(id).kind, coalesce(null, 1)) }",
      ),
    );
  });

  test("types: list<T>, T?, T??, max N?", () => {
    expect(fmt("module m\ntype T { a: list < text > max 20 ?, b: text ? ?, c: list<int> ? }")).toBe(
      lines("module m", "type T { a: list<text> max 20?, b: text??, c: list<int>? }"),
    );
  });

  test("member access, limits and a window stuck to its number", () => {
    expect(fmt('module m\nroute GET "/x" => a limit 5 per 1m by auth . id burst 10')).toBe(
      lines("module m", 'route GET "/x" => a limit 5 per 1m by auth.id burst 10'),
    );
  });
});

describe("comments", () => {
  const src = lines(
    "module m # the module",
    "# above a declaration",
    "",
    "/// The doc comment of r.",
    "resource r {",
    "  // the key",
    "  id: id # trailing",
    "  # last in the block",
    "}",
    "# at the end",
  );

  test("every comment stays where it is, own-line ones at their block's indentation", () => {
    const messy = src.replace("  // the key", "        // the key").replace("id # trailing", "id        # trailing  ").replace("  # last", "# last");
    expect(fmt(messy)).toBe(src);
  });

  test("a comment keeps the line break after it, even where a brace would join", () => {
    expect(fmt("module m\naction a() # why\n{\nreturn 1\n}")).toBe(lines("module m", "action a() # why", "  {", "    return 1", "  }"));
  });

  test("`#` and `//` inside strings are not comments", () => {
    const s = lines("module m", 'action a() { return "# not // a comment" }');
    expect(fmt(s)).toBe(s);
  });
});

describe("SQL bodies", () => {
  test("a body opened on its own line is indented one level in, its inner layout kept", () => {
    expect(fmt("module m\n  query q(n: text) {\n        SELECT id,   name\n          FROM r   \n\n        WHERE name = @n\n          }")).toBe(
      lines("module m", "query q(n: text) {", "  SELECT id,   name", "    FROM r", "", "  WHERE name = @n", "}"),
    );
  });

  test("a body starting after its brace keeps its lines where they are", () => {
    expect(fmt("module m\naction a() {\n      sql { UPDATE r\n              SET x = 1   \n   }\n}")).toBe(
      lines("module m", "action a() {", "  sql { UPDATE r", "              SET x = 1", "  }", "}"),
    );
  });

  test("a body the generator would read differently once moved stays as written", () => {
    // A quote alone on a line (here in a comment) makes the generator keep the text's indentation.
    const body = "{\n      -- the owner's rows\n      SELECT 1\n    }";
    expect(fmt(`module m\nquery q() ${body}`)).toBe(`module m\nquery q() ${body}\n`);
  });

  test("a body with a line break inside a string stays byte for byte", () => {
    const body = "{\n      INSERT INTO r (t) VALUES ('one\n  two')\n   }";
    expect(fmt(`module m\naction a() {\n    sql ${body}\n}`)).toBe(`module m\naction a() {\n  sql ${body}\n}\n`);
  });

  test("one-line bodies and spacing inside them are the author's", () => {
    const s = lines("module m", "query q() one { SELECT  1  AS one }");
    expect(fmt(s)).toBe(s);
  });
});

describe("files", () => {
  test("route files by name", () => {
    expect(fmt("GET{query m.items\nrespond result}\nunsafe POST   named {invoke m.add {a:1}}", "app/api/route.svc")).toBe(
      lines("GET {", "  query m.items", "  respond result", "}", "unsafe POST named { invoke m.add { a: 1 } }"),
    );
  });

  test("CRLF line endings become LF; an empty file stays empty", () => {
    expect(fmt("module m\r\nresource r {\r\n  id: id\r\n}\r\n")).toBe(lines("module m", "resource r {", "  id: id", "}"));
    expect(fmt("")).toBe("");
    expect(fmt("\n\n# only a comment\n")).toBe("# only a comment\n");
  });

  test("a file that does not parse is refused with the parse phase's diagnostics", () => {
    expect(() => formatSvc("module m\naction a( {", "m.svc")).toThrow(FormatError);
    try {
      formatSvc('module m\naction a() { return "open }', "bad.svc");
    } catch (e) {
      expect((e as FormatError).diagnostics.map((d) => [d.code, d.file, d.span?.start.line])).toContainEqual(["SVC1002", "bad.svc", 2]);
    }
    expect.assertions(2);
  });
});

describe("schema changes (docs/language.md §2.1, Changing a resource)", () => {
  test("clauses take one space each; the SQL in parentheses is kept as written; drop members and drop resource lay out as members and declarations", () => {
    const messy = lines(
      "module m",
      "resource  task{",
      " id:id",
      "    a : int   changed  from text using(CAST(a AS INTEGER))  lossy",
      "  b:text renamed from c backfill ( lower( x ) )",
      "   drop   z",
      "}",
      "drop   resource   q",
    );
    expect(fmt(messy)).toBe(
      lines(
        "module m",
        "resource task {",
        "  id: id",
        "  a: int changed from text using (CAST(a AS INTEGER)) lossy",
        "  b: text renamed from c backfill ( lower( x ) )",
        "  drop z",
        "}",
        "drop resource q",
      ),
    );
  });

  test("an expression over several lines keeps its lines", () => {
    const source = lines(
      "module m",
      "resource task {",
      "  id: id",
      "  a: int changed from text using (",
      "    CASE WHEN a GLOB '[0-9]*' THEN CAST(a AS INTEGER) END",
      "  ) lossy",
      "}",
    );
    expect(fmt(source)).toBe(source);
  });
});
