// Valid jq outside the compiled subset is reported as a fallback with a reason, and runs
// correctly on jq-web (on its own thread) with $params and $query bound. A call that
// crashes jq-web or runs past its bound fails alone: the next call runs on a fresh thread.

import { afterAll, describe, expect, test } from "../../support/jest.js";
import { compileJq } from "../../../compiler/jq/index.js";
import { JqError, JqWeb, JqWebFailure } from "../../../runtime/jq/index.js";
import { FALLBACK_PROGRAMS } from "./programs.js";

const vars: { params: unknown; query: unknown } = { params: { id: "7" }, query: { q: "a" } };
// Ten seconds: the crash below takes jq-web deep into recursion, which on a loaded machine ran
// past the default second and failed as a timeout. The bound itself has its own instance below.
const jq = new JqWeb(10_000);
const run = (program: string, input: unknown, v = vars) => jq.run(program, input, v);

afterAll(async () => {
  await jq.close();
});

describe("programs outside the subset", () => {
  for (const { program, reason, input, outputs } of FALLBACK_PROGRAMS) {
    test(`${program} falls back and runs on jq-web`, async () => {
      const r = compileJq("app/page.jq", program);
      expect(r.kind).toBe("fallback");
      if (r.kind !== "fallback") return;
      expect(r.reason).toMatch(reason);
      expect(r.program).toBe(program);
      expect(await run(r.program, input)).toEqual(outputs);
    });
  }

  test("jq-web errors surface as JqError with jq's message", async () => {
    await expect(run(".a", 1)).rejects.toThrow(JqError);
    await expect(run(".a", 1)).rejects.toThrow('Cannot index number with string "a"');
  });

  test("jq-web binds $params and $query from data, never from program text", async () => {
    const hostile = { id: '") | halt_error("pwned' };
    expect(await run("$params.id, $query", null, { params: hostile, query: null })).toEqual([hostile.id, null]);
  });

  test("a program with no outputs gives an empty list", async () => {
    expect(await run("empty", null)).toEqual([]);
  });

  test("a trailing comment does not swallow the wrapper", async () => {
    expect(await run(".[1:] # rest", [1, 2])).toEqual([[2]]);
  });

  test("$__loc__ gives the line in page.jq, not in the wrapper", async () => {
    expect(await run("$__loc__", null)).toEqual([{ file: "<top-level>", line: 1 }]);
    expect(await run("# a comment\n\n$__loc__.line", null)).toEqual([3]);
  });

  test("calls made together answer in order, each with its own result", async () => {
    const results = await Promise.all([1, 2, 3, 4].map((n) => run(". * 10", n)));
    expect(results).toEqual([[10], [20], [30], [40]]);
  });
});

describe("a call that breaks jq-web fails alone", () => {
  const DEPTH = "def depth: reduce .[] as $x ([]; [.]); depth | [., .] | sort | length";

  test("a crash of the WebAssembly instance fails that call; the next runs on a fresh instance", async () => {
    const started = jq.threadsStarted;
    expect(await run(DEPTH, [1, 2, 3])).toEqual([2]);
    const big = Array.from({ length: 10_001 }, (_, i) => i);
    const crashed = await run(DEPTH, big).then(
      () => null,
      (e: unknown) => e,
    );
    expect(crashed).toBeInstanceOf(JqWebFailure);
    expect((crashed as JqWebFailure).reason).toBe("crash");
    // Before: every later call failed with "memory access out of bounds".
    expect(await run(".", 1)).toEqual([1]);
    expect(await run(DEPTH, [1, 2, 3])).toEqual([2]);
    expect(jq.threadsStarted).toBe(started + 1);
  });

  test("`try` inside the program does not hide a crash, and the crash does not outlive its call", async () => {
    const big = Array.from({ length: 10_001 }, (_, i) => i);
    await expect(run(`try (${DEPTH}) catch "caught"`, big)).rejects.toThrow(JqWebFailure);
    expect(await run("$params.id", null)).toEqual(["7"]);
  });
});

describe("a call that never ends", () => {
  const bounded = new JqWeb(300);

  afterAll(async () => {
    await bounded.close();
  });

  test("is stopped at its bound while the event loop keeps turning; the next call runs", async () => {
    await bounded.ready;
    const started = bounded.threadsStarted;
    let turns = 0;
    const ticker = setInterval(() => turns++, 5);
    const runaway = bounded.run("del(.[nan])", [1, 2, 3], vars).then(
      () => null,
      (e: unknown) => e,
    );
    // Queued behind the runaway: it runs on the fresh thread once the runaway is stopped.
    const queued = bounded.run(". + 1", 1, vars);
    const failure = await runaway;
    clearInterval(ticker);
    expect(failure).toBeInstanceOf(JqWebFailure);
    expect((failure as JqWebFailure).reason).toBe("timeout");
    // Before: the loop was blocked inside jq-web and this never got here at all.
    expect(turns).toBeGreaterThan(0);
    expect(await queued).toEqual([2]);
    expect(await bounded.run("$query.q", null, vars)).toEqual(["a"]);
    expect(bounded.threadsStarted).toBe(started + 1);
  });
});

describe("a closed runner", () => {
  test("refuses calls rather than leaving them waiting", async () => {
    const closed = new JqWeb();
    await closed.ready;
    await closed.close();
    await expect(closed.run(".", 1, vars)).rejects.toThrow("jq-web was closed");
  });
});
