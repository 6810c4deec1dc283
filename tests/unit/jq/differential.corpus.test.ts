// Every program of the subset, compiled, against jq-web (jq 1.7.1) on seeded random
// inputs: the same outputs in the same order, and an error exactly when jq errors.

import { beforeAll, describe, expect, test } from "../../support/jest.js";
import { canon, compiled, Gen, outcome, type Outcome, rawJq, runOnJqWeb } from "./harness.js";
import { PAGE_PROGRAMS, SUBSET_PROGRAMS } from "./programs.js";

const INPUTS = 200;
const PARAMS = [{ id: "1" }, { id: "2" }, {}];
const QUERY = [{}, { q: "a" }];

// Binary operators on two arbitrary values mostly fail: these check that they fail alike.
const ERRORING = new Set(['error("boom")', ".a - .b", ".a * .b", ".a / .b", ".a % .b"]);

let jqWeb: Awaited<ReturnType<typeof rawJq>>;

beforeAll(async () => {
  jqWeb = await rawJq();
});

function show(o: Outcome): string {
  return o.ok ? o.values.map(canon).join(" ") : `error: ${o.message}`;
}

function differential(program: string, seed: number): void {
  const f = compiled(program);
  const gen = new Gen(seed);
  let successes = 0;
  for (let i = 0; i < INPUTS; i++) {
    const input = gen.input();
    const params = PARAMS[i % PARAMS.length];
    const query = QUERY[i % QUERY.length];
    const ours = outcome(() => f(input, params, query));
    const theirs = outcome(() => runOnJqWeb(jqWeb, program, input, { params, query }));
    if (ours.ok !== theirs.ok || (ours.ok && show(ours) !== show(theirs))) {
      throw new Error(`${program}\ninput: ${canon(input)}\ncompiled: ${show(ours)}\njq-web:   ${show(theirs)}`);
    }
    if (ours.ok) successes++;
  }
  // A program that only ever errors would prove little (except the ones meant to).
  if (!ERRORING.has(program)) expect(successes).toBeGreaterThan(0);
}

describe("compiled jq matches jq-web", () => {
  test("the lists cover enough programs", () => {
    expect(PAGE_PROGRAMS.length + SUBSET_PROGRAMS.length).toBeGreaterThanOrEqual(60);
  });

  PAGE_PROGRAMS.forEach((program, i) => {
    test(`page program ${program}`, () => differential(program, 1000 + i));
  });

  SUBSET_PROGRAMS.forEach((program, i) => {
    test(`subset program ${program}`, () => differential(program, 2000 + i));
  });
});
