// The test API every suite imports: describe, test, expect, the hooks and `jest`, as the
// runner put them on globalThis (jest.config.js). Suites import them from here rather than
// from "@jest/globals", which only Jest's own per-file module registry can load: the runner
// svc uses (jest-light-runner) imports each suite natively, in a worker that keeps the
// compiler and runtime loaded from one suite to the next.
//
// That runner enforces no time limit and does not check `expect.assertions(n)`, so both are
// done here, as Jest's default runner did: each test and hook fails after TEST_TIMEOUT_MS (or
// the limit it was given) instead of hanging the run, and a test that asked for a number of
// assertions fails unless it made them.

import type * as Globals from "@jest/globals";
import { ModernFakeTimers } from "@jest/fake-timers";

type Global = typeof Globals;
const g = globalThis as unknown as Global;

/** A test or hook gets this long unless it says otherwise (the runner reads no `testTimeout`). */
export const TEST_TIMEOUT_MS = 60_000;

type Fn = (...args: any[]) => any;

/** `fn`, failing once `ms` pass without it settling. */
export function timed<F extends Fn>(fn: F, ms: number | undefined, what: string): F {
  const limit = ms ?? TEST_TIMEOUT_MS;
  const wrapped = (...args: unknown[]): Promise<unknown> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${limit} ms`)), limit);
    });
    return Promise.race([Promise.resolve().then(() => fn(...args)), timeout]).finally(() => clearTimeout(timer));
  };
  return wrapped as unknown as F;
}

type Extracting = { extractExpectedAssertionsErrors(): { error: Error }[] };

/** `fn`, failing unless it made the assertions `expect.assertions(n)` or `expect.hasAssertions()` asked for. */
export function counted<F extends Fn>(fn: F): F {
  const expecting = g.expect as unknown as Extracting;
  const wrapped = async (...args: unknown[]): Promise<unknown> => {
    // Clears what an earlier test (or a hook) left counted.
    expecting.extractExpectedAssertionsErrors();
    const value: unknown = await fn(...args);
    const errors = expecting.extractExpectedAssertionsErrors();
    if (errors.length > 0) throw errors[0]!.error;
    return value;
  };
  return wrapped as unknown as F;
}

type TestFn = Global["test"];

/** `test` (and `it`) with its time limit and asked-for assertions enforced; `.skip`, `.only`, `.todo` and `.each` as Jest has them. */
function timedTest(base: TestFn): TestFn {
  const run = ((name: string, fn: Fn, timeout?: number) => base(name, timed(counted(fn), timeout, `test "${name}"`), timeout)) as unknown as TestFn;
  const each = ((...table: unknown[]) => {
    const bound = (base.each as (...t: unknown[]) => (name: string, fn: Fn, timeout?: number) => void)(...table);
    return (name: string, fn: Fn, timeout?: number) => bound(name, timed(counted(fn), timeout, `test "${name}"`), timeout);
  }) as unknown as TestFn["each"];
  return Object.assign(run, { skip: base.skip, only: base.only, todo: base.todo, each });
}

function timedHook<H extends Global["beforeAll"]>(base: H, hook: string): H {
  return ((fn: Fn, timeout?: number) => base(timed(fn, timeout, hook), timeout)) as unknown as H;
}

export const describe: Global["describe"] = g.describe;
export const test: TestFn = timedTest(g.test);
export const it: TestFn = timedTest(g.it);
export const expect: Global["expect"] = g.expect;
export const beforeAll: Global["beforeAll"] = timedHook(g.beforeAll, "beforeAll");
export const beforeEach: Global["beforeEach"] = timedHook(g.beforeEach, "beforeEach");
export const afterAll: Global["afterAll"] = timedHook(g.afterAll, "afterAll");
export const afterEach: Global["afterEach"] = timedHook(g.afterEach, "afterEach");

/**
 * The runner's fake timers fake every timer whatever they are asked; these honour
 * `useFakeTimers`'s options (a test that fakes Date only keeps its real sockets and timers).
 */
const timers = new ModernFakeTimers({ global: globalThis, config: { fakeTimers: {} } as never });

type Jest = Global["jest"];
export const jest: Jest = Object.assign(Object.create(g.jest) as Jest, {
  useFakeTimers(config?: Parameters<Jest["useFakeTimers"]>[0]) {
    timers.useFakeTimers(config as never);
    return jest;
  },
  useRealTimers() {
    timers.useRealTimers();
    return jest;
  },
  setSystemTime(now?: number | Date) {
    timers.setSystemTime(now);
  },
});
