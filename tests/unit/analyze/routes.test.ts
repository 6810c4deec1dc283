import { describe, expect, test } from "../../support/jest.js";
import { TASK, analyzeText, codes } from "./analyze.js";

function routes(lines: string) {
  return analyzeText(`${TASK}\naction start(id: id) { return get task(id) }\n${lines}\n`);
}

describe("routes", () => {
  test("segments are precomputed and targets resolved", () => {
    const r = routes(`route POST "/v1/tasks/:id/start" => start\nroute GET "/v1/tasks/:id" => get_task`);
    expect(r.diagnostics).toEqual([]);
    expect(r.model.routes.map((x) => [x.method, x.segments, x.target])).toEqual([
      ["POST", ["v1", "tasks", ":id", "start"], { kind: "action", module: "m", name: "start" }],
      ["GET", ["v1", "tasks", ":id"], { kind: "query", module: "m", name: "get_task" }],
    ]);
  });

  test("the same method and path twice is an error naming the first place", () => {
    const r = routes(`route GET "/t/:id" => get_task\nroute GET "/t/:id" => get_task`);
    expect(codes(r.diagnostics)).toEqual(["SVC2034"]);
    expect(r.diagnostics[0].message).toMatch(/m\.svc:\d+:1/);
  });

  test("a route shadowed by an earlier :param route is a warning; the other order is fine", () => {
    expect(codes(routes(`route GET "/t/:id" => get_task\nroute GET "/t/open" => get_task`).diagnostics)).toEqual(["SVC2035"]);
    expect(routes(`route GET "/t/open" => get_task\nroute GET "/t/:id" => get_task`).diagnostics).toEqual([]);
  });

  test("bad methods, paths, params and targets", () => {
    expect(codes(routes(`route HEAD "/t" => start`).diagnostics)).toEqual(["SVC2030"]);
    expect(codes(routes(`route GET "t" => get_task`).diagnostics)).toEqual(["SVC2031"]);
    expect(codes(routes(`route GET "/t/:id/:id" => get_task`).diagnostics)).toEqual(["SVC2031"]);
    expect(codes(routes(`route GET "/t/:key" => get_task`).diagnostics)).toEqual(["SVC2033"]);
    expect(codes(routes(`route GET "/t" => nothing`).diagnostics)).toEqual(["SVC2032"]);
  });
});
