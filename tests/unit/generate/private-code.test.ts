// Generated code for private code and composition (docs/language.md §2.3): no route, endpoint or
// input check for private code no route file calls; a callee on the caller's executor; a fn
// as a plain function of its arguments.

import { describe, expect, test } from "../../support/jest.js";
import { generateServerTs } from "../../../compiler/generate/index.js";
import { TASK, analyzeText } from "../analyze/analyze.js";

describe("generated private code and calls", () => {
  test("private code reached only from actions has no route, no endpoint and no input check", async () => {
    const { model, diagnostics } = analyzeText(`${TASK}
private query open_tasks() { SELECT * FROM task WHERE status = 'open' }
private action add(title: text, points: int = 2) { return insert task { title: title, points: points } }
fn short(t) { { title: t.title } }
action add_two(a: text, b: text) { let x = add(title: a) let y = add(title: b, points: 5) return [short(x), short(y), len(open_tasks())] }`);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const ts = await generateServerTs(model, { pretty: false });
    expect(ts).not.toContain("/api/m:open_tasks");
    expect(ts).not.toContain("/api/m:add\"");
    expect(ts).not.toMatch(/openTasksEndpoint|openTasksInput|addEndpoint|addInput\b/);
    expect(ts).toContain("/api/m:add_two");
    // The callee runs on the caller's transaction, its defaults filled at build time.
    expect(ts).toContain("await add(tx, { title: args.a, points: 2 })");
    expect(ts).toContain("await add(tx, { title: args.b, points: 5 })");
    expect(ts).toMatch(/export function short\(args: ShortArgs\): \{\s*title: string;?\s*\}/);
    expect(ts).toContain("short({ t: x })");
  });
});
