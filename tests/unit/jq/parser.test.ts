// The jq parser: syntax errors come back as SVC5001 with a position (never as an
// exception), unknown names as SVC5002/SVC5003, and what it accepts agrees with jq 1.7.1.

import { describe, expect, test } from "../../support/jest.js";
import { compileJq } from "../../../compiler/jq/index.js";
import { parseJq } from "../../../compiler/jq/parser.js";
import { Gen, rawJq } from "./harness.js";

function firstDiagnostic(program: string) {
  const r = compileJq("app/tasks/page.jq", program);
  if (r.kind !== "error") throw new Error(`expected an error for ${program}, got ${r.kind}`);
  return r.diagnostics[0];
}

describe("syntax errors", () => {
  const cases: [string, string, number, number, RegExp][] = [
    ["dangling operator", ".a +", 1, 5, /unexpected end of program/],
    ["operator in an object value", "{a: 1 + 2}", 1, 7, /unexpected `\+`, expected `,` or `}`/],
    ["unterminated string", '"abc', 1, 5, /unterminated string/],
    ["if without end", "if . then 1", 1, 12, /expected `elif`, `else` or `end`/],
    ["second line", "{records: .records,\n  count: (.records | length}", 2, 28, /expected `\)`/],
    ["invalid escape", '"a\\qb"', 1, 3, /invalid escape `\\q`/],
    ["lone format sign", "@ | .", 1, 1, /expected a name after `@`/],
    ["chained comparison", "1 == 2 == 3", 1, 8, /unexpected `==`/],
    ["unknown character", ".a ^ 2", 1, 4, /unexpected character `\^`/],
    ["unclosed bracket", ".records[0", 1, 11, /expected `\]`/],
  ];
  for (const [name, program, line, column, message] of cases) {
    test(name, () => {
      const d = firstDiagnostic(program);
      expect(d.code).toBe("SVC5001");
      expect(d.severity).toBe("error");
      expect(d.file).toBe("app/tasks/page.jq");
      expect(d.message).toMatch(message);
      expect(d.span?.start).toMatchObject({ line, column });
    });
  }

  test("deep nesting is a diagnostic, not a stack overflow", () => {
    for (const program of ["[".repeat(5000) + "]".repeat(5000), "1" + " + 1".repeat(20000), ".a" + " | .a".repeat(20000)]) {
      const d = firstDiagnostic(program);
      expect(d.code).toBe("SVC5001");
      expect(d.message).toMatch(/nests deeper/);
    }
  });
});

describe("names jq would reject", () => {
  test("an unknown function, with a suggestion", () => {
    const d = firstDiagnostic(".records | lenght");
    expect(d.code).toBe("SVC5002");
    expect(d.message).toBe("jq function lenght/0 is not defined");
    expect(d.hint).toBe("did you mean `length`?");
    expect(d.span?.start).toMatchObject({ line: 1, column: 12 });
  });

  test("a builtin with the wrong number of arguments", () => {
    expect(firstDiagnostic("map").code).toBe("SVC5002");
  });

  test("an unbound variable", () => {
    const d = firstDiagnostic("{id: $id}");
    expect(d.code).toBe("SVC5003");
    expect(d.message).toBe("jq variable $id is not defined");
  });

  test("a constant key that is not a string", () => {
    const d = firstDiagnostic('{(1): "x"}');
    expect(d.code).toBe("SVC5004");
    expect(d.message).toBe("object keys must be strings; this key is always a number");
    expect(d.span?.start).toMatchObject({ line: 1, column: 3 });
  });

  test("$params and $query are bound, and `as` binds in its body only", () => {
    expect(compileJq("p.jq", "{p: $params, q: $query}").kind).toBe("compiled");
    expect(compileJq("p.jq", ".a as $x | $x").kind).toBe("compiled");
    expect(firstDiagnostic("(.a as $x | $x), $x").code).toBe("SVC5003");
  });
});

describe("the parser agrees with jq on what is valid", () => {
  test("spans cover the source they came from", () => {
    const r = parseJq("  .a | .b");
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.ast.span).toMatchObject({ start: { offset: 2, column: 3 }, end: { offset: 9 } });
  });

  test("random token soups: never an exception, and rejected exactly when jq rejects them", async () => {
    const jq = await rawJq();
    const tokens = [".", ".a", ".[]", "[", "]", "{", "}", "(", ")", "|", ",", ":", ";", "1", '"s"', '"\\(1)"', "a", "$x", "as $x |", "if", "then", "else", "elif", "end", "+", "-", "*", "==", "<", "and", "or", "not", "?", "//", "reduce", "try", "catch", "length", "map", "select", "..", "@html", "true", "null", "[.[]]", "-1", "{a: 1}", "@text \"x\"", "{(1): 2}", "{(\"k\"): 2}"];
    const gen = new Gen(7);
    let accepted = 0;
    for (let i = 0; i < 600; i++) {
      const n = 1 + gen.int(7);
      const program = Array.from({ length: n }, () => gen.pick(tokens)).join(" ");
      const ours = compileJq("p.jq", program);
      let jqRejects = false;
      try {
        jq.raw("null", program, ["-c"]);
      } catch (e) {
        jqRejects = (e as { exitCode?: number }).exitCode === 3;
      }
      if ((ours.kind === "error") !== jqRejects) throw new Error(`disagreement on ${JSON.stringify(program)}: ours ${JSON.stringify(ours)}, jq rejects: ${jqRejects}`);
      if (!jqRejects) accepted++;
    }
    expect(accepted).toBeGreaterThan(30);
  });
});
