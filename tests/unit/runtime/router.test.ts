import { describe, test, expect } from "../../support/jest.js";
import { HttpError } from "../../../runtime/core/errors.js";
import { Router, pathSegments, splitTarget, type MatchResult } from "../../../runtime/core/router.js";
import type { RouteSpec, RouteTarget } from "../../../runtime/contract/index.js";
import type { PageSpec, RouteFileSpec } from "../../../runtime/contract/index.js";
import { endpoint, route } from "./helpers.js";

const noop = async (): Promise<unknown> => null;
const create = endpoint("tasks.create_task", "action", noop);
const list = endpoint("tasks.list_tasks", "query", noop);
const open = endpoint("tasks.list_open", "query", noop);
const get = endpoint("tasks.get_task", "query", noop);
const start = endpoint("tasks.start_task", "action", noop);
const remove = endpoint("tasks.delete_task", "action", noop);

const router = new Router([
  route("POST", "/api/tasks:create_task", create),
  route("GET", "/api/tasks:list_tasks", list),
  route("POST", "/v1/tasks/:id/start", start),
  route("GET", "/v1/tasks/open", open),
  route("GET", "/v1/tasks/:id", get),
  route("DELETE", "/v1/tasks/:id", remove),
]);

function endpointOf(result: MatchResult): string | null {
  return result !== null && "target" in result && result.target.kind === "endpoint" ? result.target.endpoint.name : null;
}

describe("router: static routes", () => {
  test("exact path and method find the endpoint without params", () => {
    const result = router.match("POST", "/api/tasks:create_task");
    expect(endpointOf(result)).toBe("tasks.create_task");
    expect(result !== null && "params" in result ? result.params : "no").toBeNull();
  });

  test("a known path with another method is a 405 listing the allowed methods", () => {
    expect(router.match("GET", "/api/tasks:create_task")).toEqual({ allow: ["POST"] });
    expect(router.match("DELETE", "/api/tasks:list_tasks")).toEqual({ allow: ["GET"] });
  });

  test("an unknown path is null (404)", () => {
    expect(router.match("POST", "/api/tasks:nope")).toBeNull();
    expect(router.match("GET", "/")).toBeNull();
    expect(router.match("GET", "")).toBeNull();
  });

  test("a %-encoded colon still finds the static route", () => {
    expect(endpointOf(router.match("POST", "/api/tasks%3Acreate_task"))).toBe("tasks.create_task");
  });

  test("a broken escape in a static-looking path is a 404, not a crash", () => {
    expect(router.match("POST", "/api/tasks%zzcreate_task")).toBeNull();
  });
});

describe("router: param routes", () => {
  test("a :param segment captures its value", () => {
    const result = router.match("POST", "/v1/tasks/01HZX/start");
    expect(endpointOf(result)).toBe("tasks.start_task");
    expect(result !== null && "params" in result ? { ...result.params } : null).toEqual({ id: "01HZX" });
  });

  test("declaration order: a fixed segment declared first wins over :id", () => {
    expect(endpointOf(router.match("GET", "/v1/tasks/open"))).toBe("tasks.list_open");
    expect(endpointOf(router.match("GET", "/v1/tasks/abc"))).toBe("tasks.get_task");
  });

  test("declaration order: a :param declared first shadows a later fixed segment", () => {
    const shadowing = new Router([route("GET", "/v1/tasks/:id", get), route("GET", "/v1/tasks/open", open)]);
    expect(endpointOf(shadowing.match("GET", "/v1/tasks/open"))).toBe("tasks.get_task");
  });

  test("the same path with different methods picks by method", () => {
    expect(endpointOf(router.match("DELETE", "/v1/tasks/7"))).toBe("tasks.delete_task");
    expect(endpointOf(router.match("GET", "/v1/tasks/7"))).toBe("tasks.get_task");
  });

  test("a matching path with no route for the method lists every method that would match", () => {
    expect(router.match("PUT", "/v1/tasks/7")).toEqual({ allow: ["GET", "DELETE"] });
    expect(router.match("GET", "/v1/tasks/7/start")).toEqual({ allow: ["POST"] });
  });

  test("segment count must match; empty segments do not fill a param", () => {
    expect(router.match("GET", "/v1/tasks")).toBeNull();
    expect(router.match("GET", "/v1/tasks/7/extra/more")).toBeNull();
    expect(router.match("POST", "/v1/tasks//start")).toBeNull();
    expect(router.match("GET", "/v1/tasks/")).toBeNull();
  });

  test("params are URL-decoded", () => {
    const result = router.match("GET", "/v1/tasks/a%20b%2Fc%C3%A9");
    expect(result !== null && "params" in result ? result.params?.id : null).toBe("a b/cé");
  });

  test("a literal segment matches its %-encoded form", () => {
    expect(endpointOf(router.match("GET", "/v1/tasks/%6Fpen"))).toBe("tasks.list_open");
  });

  test("a bad %-escape in a param is a 400 naming the parameter", () => {
    let caught: unknown;
    try {
      router.match("GET", "/v1/tasks/%E0%A4%A");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(HttpError);
    expect((caught as HttpError).status).toBe(400);
    expect((caught as HttpError).message).toContain('"id"');
  });

  test("an exact path entered first is taken before a parameter route, and one entered later is not", () => {
    const exactFirst = new Router([route("GET", "/v1/tasks/open", list), route("GET", "/v1/tasks/:id", get)]);
    expect(endpointOf(exactFirst.match("GET", "/v1/tasks/open"))).toBe("tasks.list_tasks");
    expect(endpointOf(exactFirst.match("GET", "/v1/tasks/x"))).toBe("tasks.get_task");
    const paramFirst = new Router([route("GET", "/v1/tasks/:id", get), route("GET", "/v1/tasks/open", list)]);
    expect(endpointOf(paramFirst.match("GET", "/v1/tasks/open"))).toBe("tasks.get_task");
  });
});

describe("router: one table for every kind of target", () => {
  const file: RouteFileSpec = { path: "/tasks/:id", blocks: [] };
  const page: PageSpec = { path: "/tasks/:id", source: "app/tasks/[id]/page.html", title: null, template: "", data: null, load: null, jq: null };
  const table: RouteSpec[] = [
    { method: "POST", path: "/hooks/github", target: { kind: "webhook", name: "m.github" } },
    route("GET", "/api/m:list", list),
    route("DELETE", "/tasks/:id", remove),
    { method: "POST", path: "/tasks/:id", segments: ["tasks", ":id"], target: { kind: "file", file } },
    { method: "GET", path: "/tasks/:id", segments: ["tasks", ":id"], target: { kind: "page", page } },
    { method: "GET", path: "/", target: { kind: "page", page } },
    { method: "GET", path: "/style.css", target: { kind: "asset" } },
  ];
  const hook = endpoint("m.github", "action", noop);
  const bind = (t: RouteTarget) => (t.kind === "webhook" ? { kind: "endpoint" as const, endpoint: hook } : t);
  const one = new Router(table, bind);
  const kindAt = (method: string, path: string) => {
    const m = one.match(method, path);
    return m === null ? null : "allow" in m ? m : m.target.kind;
  };

  test("each request finds its target by path and method, whatever its kind", () => {
    expect(kindAt("POST", "/hooks/github")).toBe("endpoint");
    expect(endpointOf(one.match("POST", "/hooks/github"))).toBe("m.github");
    expect(kindAt("DELETE", "/tasks/7")).toBe("endpoint");
    expect(kindAt("POST", "/tasks/7")).toBe("file");
    expect(kindAt("GET", "/tasks/7")).toBe("page");
    expect(kindAt("GET", "/")).toBe("page");
    expect(kindAt("GET", "/style.css")).toBe("asset");
  });

  test("a 405 lists the methods of every kind at the path", () => {
    expect(kindAt("PUT", "/tasks/7")).toEqual({ allow: ["DELETE", "POST", "GET"] });
    expect(one.allowed("/tasks/7")).toEqual(["DELETE", "POST", "GET"]);
    expect(one.allowed("/nothing")).toBeNull();
  });

  test("what the table holds: its methods, and its targets of one kind once each", () => {
    expect([...one.methods()].sort()).toEqual(["DELETE", "GET", "POST"]);
    expect(one.targets("page")).toEqual([{ kind: "page", page }]);
  });

  test("a webhook left unbound is refused at start", () => {
    expect(() => new Router(table)).toThrow("webhook m.github is in the route table but was not bound");
  });
});

describe("router: path helpers", () => {
  test("pathSegments", () => {
    expect(pathSegments("/")).toEqual([]);
    expect(pathSegments("/a/b/")).toEqual(["a", "b", ""]);
    expect(pathSegments("a/b")).toBeNull();
  });

  test("splitTarget separates the query string at the first ?", () => {
    expect(splitTarget("/a/b?x=1&y=?")).toEqual({ path: "/a/b", query: "x=1&y=?" });
    expect(splitTarget("/a")).toEqual({ path: "/a", query: "" });
  });
});
