// Which actions run inside BEGIN/COMMIT: everything that could need a rollback.
import { describe, expect, test } from "../../support/jest.js";
import { TASK, analyzeText } from "./analyze.js";

function needs(body: string, params = "id: id, t: text"): boolean {
  const r = analyzeText(`${TASK}\naction a(${params}) {\n${body}\n}\n`);
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r.model.actions[0].transaction;
}

describe("ActionModel.transaction", () => {
  test("one statement, fails only before it: autocommit is atomic", () => {
    expect(needs(`if t == "" { fail "empty" }\nreturn insert task { title: t }`)).toBe(false);
    expect(needs(`return get task(id)`)).toBe(false);
    expect(needs(`sql { DELETE FROM task WHERE status = 'done' }`)).toBe(false);
  });

  test("a fail after the statement could have to undo it", () => {
    expect(needs(`let x = insert task { title: t }\nfail 409 "no"`)).toBe(true);
    expect(needs(`let x = delete task(id)\nif x == null { fail 404 "gone" }\nreturn x`)).toBe(true);
  });

  test("two statements, even in different branches, need a transaction", () => {
    expect(needs(`if t == "" { return get task(id) } else { return delete task(id) }`)).toBe(true);
    expect(needs(`let x = get_task(id: id)\nreturn update task(id) { title: t }`)).toBe(true);
  });
});
