import { describe, test, expect } from "../../support/jest.js";
import { indexToml, locate } from "../../../compiler/project/config/locate.js";
import type { TomlPath } from "../../../compiler/project/config/locate.js";
import type { Span } from "../../../compiler/parse/ast.js";

/** "line:col-line:col" of a span, or null. */
function where(span: Span | null): string | null {
  return span && `${span.start.line}:${span.start.column}-${span.end.line}:${span.end.column}`;
}

const keyAt = (text: string, path: TomlPath) => where(locate(text, path));
const valueAt = (text: string, path: TomlPath) => where(indexToml(text).value(path));

describe("locate: keys", () => {
  test("plain tables and keys, after comments and blank lines", () => {
    const text = ["# svc.toml", "", "[server]  # the server", 'listen = "127.0.0.1:8080"', "  workers=2"].join("\n");
    expect(keyAt(text, ["server"])).toBe("3:2-3:8");
    expect(keyAt(text, ["server", "listen"])).toBe("4:1-4:7");
    expect(keyAt(text, ["server", "workers"])).toBe("5:3-5:10");
    expect(valueAt(text, ["server", "workers"])).toBe("5:11-5:12");
    expect(keyAt(text, ["server", "missing"])).toBeNull();
  });

  test("nested table headers name every prefix", () => {
    const text = "[a.b]\nx = 1\n[ a . c ]\ny = 2\n";
    expect(keyAt(text, ["a"])).toBe("1:2-1:3");
    expect(keyAt(text, ["a", "b"])).toBe("1:4-1:5");
    expect(keyAt(text, ["a", "b", "x"])).toBe("2:1-2:2");
    expect(keyAt(text, ["a", "c"])).toBe("3:7-3:8");
    expect(keyAt(text, ["a", "c", "y"])).toBe("4:1-4:2");
  });

  test("dotted keys, at the top level and inside a table", () => {
    const text = 'server.listen = "x"\n[auth]\nbearer . credential = "tok"\n';
    expect(keyAt(text, ["server"])).toBe("1:1-1:7");
    expect(keyAt(text, ["server", "listen"])).toBe("1:8-1:14");
    expect(keyAt(text, ["auth", "bearer"])).toBe("3:1-3:7");
    expect(keyAt(text, ["auth", "bearer", "credential"])).toBe("3:10-3:20");
    expect(valueAt(text, ["auth", "bearer", "credential"])).toBe("3:23-3:28");
  });

  test("inline tables, nested and spread over values", () => {
    const text = '[credentials]\ngh = { env = "GH" }\nx = { a = { b = 1, c = "}" }, d = [1, 2] }\n';
    expect(keyAt(text, ["credentials", "gh", "env"])).toBe("2:8-2:11");
    expect(valueAt(text, ["credentials", "gh"])).toBe("2:6-2:20");
    expect(valueAt(text, ["credentials", "gh", "env"])).toBe("2:14-2:18");
    expect(keyAt(text, ["credentials", "x", "a", "c"])).toBe("3:20-3:21");
    expect(valueAt(text, ["credentials", "x", "a", "c"])).toBe("3:24-3:27");
    expect(keyAt(text, ["credentials", "x", "d"])).toBe("3:31-3:32");
    expect(valueAt(text, ["credentials", "x", "d", 1])).toBe("3:39-3:40");
  });

  test("quoted keys, with escapes and dots inside the quotes", () => {
    const text = '[credentials]\n"my.key" = { file = "/x" }\n\'lit\' = 1\n"t\\u0061b" = 2\n[a."b.c"]\nz = 3\n';
    expect(keyAt(text, ["credentials", "my.key"])).toBe("2:1-2:9");
    expect(keyAt(text, ["credentials", "lit"])).toBe("3:1-3:6");
    expect(keyAt(text, ["credentials", "tab"])).toBe("4:1-4:11");
    expect(keyAt(text, ["a", "b.c"])).toBe("5:4-5:9");
    expect(keyAt(text, ["a", "b.c", "z"])).toBe("6:1-6:2");
  });

  test("arrays of strings over many lines, with comments and a trailing comma", () => {
    const text = [
      "[modules]",
      "dirs = [",
      '  "modules/*", # main',
      "  # none here",
      "  'extra/one',",
      "]",
      "after = 1",
    ].join("\n");
    expect(valueAt(text, ["modules", "dirs", 0])).toBe("3:3-3:14");
    expect(valueAt(text, ["modules", "dirs", 1])).toBe("5:3-5:14");
    expect(valueAt(text, ["modules", "dirs", 2])).toBeNull();
    expect(valueAt(text, ["modules", "dirs"])).toBe("2:8-6:2");
    expect(keyAt(text, ["modules", "after"])).toBe("7:1-7:6");
  });

  test("multi-line strings hide what looks like keys and headers", () => {
    const text = 'a = """\n[fake]\nb = 1 \\"""\n"""""\n[real]\nc = \'\'\'x = 1\'\'\'\nd = 2\n';
    expect(keyAt(text, ["fake"])).toBeNull();
    expect(keyAt(text, ["b"])).toBeNull();
    expect(valueAt(text, ["a"])).toBe("1:5-4:6");
    expect(keyAt(text, ["real"])).toBe("5:2-5:6");
    expect(keyAt(text, ["real", "c"])).toBe("6:1-6:2");
    expect(keyAt(text, ["real", "d"])).toBe("7:1-7:2");
  });

  test("a hash inside a string is not a comment", () => {
    const text = 'url = "https://x.example/#frag" # a comment\nnext = true\n';
    expect(valueAt(text, ["url"])).toBe("1:7-1:32");
    expect(keyAt(text, ["next"])).toBe("2:1-2:5");
  });

  test("arrays of tables are indexed by occurrence", () => {
    const text = "[[p]]\nn = 1\n[[p]]\nn = 2\n[p.q]\nm = 3\n";
    expect(keyAt(text, ["p", 0, "n"])).toBe("2:1-2:2");
    expect(keyAt(text, ["p", 1, "n"])).toBe("4:1-4:2");
    expect(keyAt(text, ["p", 1, "q", "m"])).toBe("6:1-6:2");
  });

  test("a date-time with a space is one value", () => {
    const text = "when = 1979-05-27 07:32:00Z\nthen = 2\n";
    expect(valueAt(text, ["when"])).toBe("1:8-1:28");
    expect(keyAt(text, ["then"])).toBe("2:1-2:5");
  });

  test("CRLF line ends count as one line break", () => {
    const text = '[server]\r\nlisten = "a:1"\r\nworkers = 2\r\n';
    expect(keyAt(text, ["server", "workers"])).toBe("3:1-3:8");
  });

  test("best() falls back from value to key to the nearest written ancestor", () => {
    const index = indexToml("[auth.bearer]\ncredential = 5\n");
    expect(where(index.best(["auth", "bearer", "credential"]))).toBe("2:14-2:15");
    expect(where(index.best(["auth", "bearer"]))).toBe("1:7-1:13");
    expect(where(index.best(["auth", "bearer", "nothing", "deeper"]))).toBe("1:7-1:13");
    expect(index.best(["other"])).toBeNull();
  });

  test("broken text ends without hanging or throwing", () => {
    for (const text of ["[a", 'x = "open', "x = [1, 2", "x = { a = ", "= 1", "]]]", "x = '''never", "[[", "a.=1"]) {
      expect(() => indexToml(text)).not.toThrow();
    }
    expect(keyAt("[a\nb = 1", ["a"])).toBe("1:2-1:3");
  });
});
