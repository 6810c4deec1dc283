// The tick entry a server keeps (runtime/lang/tick-shapes.ts) so that V8 never drops the
// hidden classes of process.nextTick's entries: what is kept is a real entry, and after full
// collections with no tick queued a new entry still has the kept one's class, so keeping it is
// keeping the class nextTick's code was optimized for. Both would break if Node changed its
// entries (the type the init hook sees, their shape), which is when the keeping stops working.

import { spawnSync } from "node:child_process";
import { expect, test } from "../../support/jest.js";
import { keepTickShapes } from "../../../runtime/lang/tick-shapes.js";

test("what is kept is nextTick's own entry, with and without arguments, taken once", () => {
  const kept = keepTickShapes();
  expect(kept).toHaveLength(2);
  for (const entry of kept) {
    // Its ids first, as nextTick's literal makes them; an AsyncLocalStorage enabled in the
    // process (another test's, in the same worker) adds its store after, a class further down the
    // same chain, which keeps the literal's classes alive all the same.
    expect(Object.getOwnPropertySymbols(entry).map((s) => s.description).slice(0, 2)).toEqual(["async_id_symbol", "trigger_async_id_symbol"]);
    expect(typeof (entry as { callback?: unknown }).callback).toBe("function");
  }
  expect((kept[1] as { args?: unknown }).args).toEqual([0]);
  expect(keepTickShapes()).toBe(kept);
});

test("after full collections with no tick queued, a new entry has the kept entry's hidden class", () => {
  const module = new URL("../../../runtime/lang/tick-shapes.js", import.meta.url).href;
  // In a process of its own: V8's natives (%HaveSameMap) and gc() are flags of the process.
  const script = `
    import { createHook } from "node:async_hooks";
    import { keepTickShapes } from ${JSON.stringify(module)};
    const [kept] = keepTickShapes();
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 0; i < 3; i++) globalThis.gc();
    let fresh = null;
    const hook = createHook({ init(id, type, trigger, resource) { if (type === "TickObject") fresh = resource; } }).enable();
    process.nextTick(() => {});
    hook.disable();
    process.stdout.write(String(%HaveSameMap(kept, fresh)));
  `;
  const run = spawnSync(process.execPath, ["--allow-natives-syntax", "--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(run.stdout).toBe("true");
});
