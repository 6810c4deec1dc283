// Which actions write, as the model records it (compiler/analyze/checks/writes.ts), and the build
// error for a GET route that reaches one (SVC7020, docs/language.md §3): the attacks a link
// from another site could make (signing the user out, deleting, writing through a call).

import { describe, expect, test } from "../../support/jest.js";
import { TASK, analyzeText, codes } from "./analyze.js";

const SESSIONS = { auth: { bearer: { credential: "tokens" }, sessions: {} } };

describe("what writes", () => {
  test("record writes, sql that is not a SELECT, sessions and calls to writers; reads do not", () => {
    const r = analyzeText(
      `${TASK}
action reads(id: id) { return get_task(id: id) }
action gets(id: id) { return get task(id) }
action inserts(title: text) { return insert task { title: title } }
action deletes(id: id) { return delete task(id) }
action in_branch(id: id) { if id == "x" { sql { update task set points = 0 } } }
action in_loop(ids: list<id>) { for id in ids { let t = update task(id) { points: 1 } } }
action calls_writer(title: text) { return inserts(title: title) }
action calls_calls(title: text) { return calls_writer(title: title) }
action calls_reader(id: id) { return reads(id: id) }
action signs_out() { end_session() }
action signs_in(who: text) { return start_session(who) }
action revokes(who: text) { return revoke(who) }
`,
      SESSIONS,
    );
    expect(codes(r.diagnostics)).toEqual([]);
    const writes = Object.fromEntries(r.model.actions.map((a) => [a.name, a.writes ?? null]));
    expect(writes).toEqual({
      reads: null,
      gets: null,
      inserts: { what: "insert task", through: [] },
      deletes: { what: "delete task", through: [] },
      in_branch: { what: "sql { … }", through: [] },
      in_loop: { what: "update task", through: [] },
      calls_writer: { what: "insert task", through: ["inserts"] },
      calls_calls: { what: "insert task", through: ["calls_writer", "inserts"] },
      calls_reader: null,
      signs_out: { what: "end_session()", through: [] },
      signs_in: { what: "start_session()", through: [] },
      revokes: { what: "revoke()", through: [] },
    });
  });
});

describe("a GET route to an action that writes", () => {
  test("is SVC7020, naming the write; a cross-site link would sign the user out", () => {
    const r = analyzeText(`${TASK}\naction sign_out() { end_session() }\nroute GET "/sign-out" => sign_out\n`, SESSIONS);
    expect(codes(r.diagnostics)).toEqual(["SVC7020"]);
    expect(r.diagnostics[0].message).toBe('route GET "/sign-out" runs `sign_out`, which writes (`end_session()`); a link from any site can run a GET');
    expect(r.diagnostics[0].hint).toContain('`unsafe route GET "/sign-out" => sign_out`');
  });

  test("POST, PUT, PATCH and DELETE may write: the cross-site rule guards them at run time", () => {
    const r = analyzeText(
      `${TASK}\naction remove(id: id) { return delete task(id) }\nroute POST "/a/:id" => remove\nroute PUT "/b/:id" => remove\nroute PATCH "/c/:id" => remove\nroute DELETE "/d/:id" => remove\n`,
    );
    expect(codes(r.diagnostics)).toEqual([]);
  });

  test("`unsafe route GET` allows it, and the model says so", () => {
    const r = analyzeText(`${TASK}\naction touch(id: id) { return update task(id) { points: 1 } }\nunsafe route GET "/touch/:id" => touch\n`);
    expect(codes(r.diagnostics)).toEqual([]);
    expect(r.model.routes.map((x) => x.unsafe ?? false)).toEqual([true]);
  });
});

describe("`unsafe` is a keyword only before `route` and a route-file method", () => {
  test("a field, a parameter and an action may be called unsafe", () => {
    const r = analyzeText(`module m
resource flag { id: id\n unsafe: bool = false }
action unsafe(unsafe: bool) { return insert flag { unsafe: unsafe } }
route POST "/flags" => unsafe
`);
    expect(codes(r.diagnostics)).toEqual([]);
    expect(r.model.actions.map((a) => [a.name, a.writes])).toEqual([["unsafe", { what: "insert flag", through: [] }]]);
  });
});
