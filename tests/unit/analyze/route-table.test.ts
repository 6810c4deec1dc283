// The route table and the endpoints, decided once in analysis (compiler/analyze/route-table.ts),
// and each action's fail statuses and whether it reads the caller (checks/action-reach.ts):
// what the generator and openapi.json print without deciding again.

import { describe, expect, test } from "../../support/jest.js";
import { analyze } from "../../../compiler/analyze/index.js";
import type { Model } from "../../../compiler/analyze/model/model.js";
import { parseApp } from "../../../compiler/parse/app.js";
import { parseModule } from "../../../compiler/parse/index.js";
import { defaultConfig } from "../../../compiler/project/config.js";

const MODULE = `module shop

resource item {
  id: id
  name: text
}

query list_items() {
  SELECT * FROM item
}

private query item_by_name(name: text) one {
  SELECT * FROM item WHERE name = @name
}

private query unused_items() {
  SELECT * FROM item
}

fn checked_name(name: text) {
  if trim(name) == "" { fail 422 "a name is required" }
  return trim(name)
}

private action add_item(name: text) {
  let n = checked_name(name)
  if item_by_name(name: n) != null { fail 409 "taken" }
  return insert item { name: n }
}

action create_item(name: text) {
  return add_item(name: name)
}

action whoami() {
  return auth.id
}

action who_calls() {
  return whoami()
}

action show(id: id) {
  let i = get item(id)
  if i == null { fail 404 "no such item" }
  for x in [1, 2] {
    if x > 1 { fail 400 "too many" }
  }
  return i
}

action record(payload: json) {
  return 1
}

action count(payload: json) {
  return len(payload.items)
}

route GET "/items/:id" => show
route POST "/items" => create_item
route GET "/items/all" => list_items

webhook pushed {
  provider: "github"
  secret: credentials.gh
  path: "/hooks/push"
  handler: record
}
`;

const APP = [
  { path: "app/api/items/route.svc", text: "GET {\n  query shop.list_items\n}\nPOST {\n  invoke shop.add_item { name: input.body.name }\n  redirect \"/items\"\n}\n" },
  { path: "app/api/items/[name]/route.svc", text: "GET {\n  fetch shop.item_by_name { name: input.params.name }\n}\n" },
  { path: "app/items/page.html", text: "---\nroute: /api/items\n---\n<ul></ul>\n" },
  { path: "app/shelf/[name]/page.html", text: "<p>{{name}}</p>\n" },
];

function analyzed(): Model {
  const parsed = parseModule("modules/shop/shop.svc", MODULE);
  const app = parseApp(APP);
  const config = defaultConfig();
  config.auth.bearer = { credential: "tokens" };
  config.credentials.gh = { env: "GH_SECRET" };
  config.credentials.tokens = { env: "TOKENS" };
  const result = analyze({
    name: "t",
    version: "1.0.0",
    mode: "project",
    config,
    modules: [{ dir: "modules/shop", files: [parsed.ast] }],
    sources: ["modules/shop/shop.svc", ...APP.map((f) => f.path)],
    app: {
      dir: "app",
      files: APP,
      parsed: app.ast,
      publicFiles: [{ path: "/style.css", source: "public/style.css", contentType: "text/css; charset=utf-8", encoding: "utf8", body: "p {}" }],
    },
  });
  const problems = [...parsed.diagnostics, ...app.diagnostics, ...result.diagnostics].filter((d) => d.severity === "error");
  expect(problems).toEqual([]);
  return result.model;
}

describe("the route table", () => {
  const model = analyzed();

  test("is in match order: webhooks, /api endpoints (queries, then actions), module routes as declared, route files, pages, public/ files", () => {
    const rows = model.routeTable.map((e) => {
      const t = e.target;
      const what = t.kind === "endpoint" ? `${t.target.kind} ${t.target.module}.${t.target.name}` : t.kind === "webhook" ? `webhook ${t.module}.${t.name}` : `${t.kind} ${t.source}`;
      return `${e.method} ${e.path} ${what}`;
    });
    expect(rows).toEqual([
      "POST /hooks/push webhook shop.pushed",
      "GET /api/shop:list_items query shop.list_items",
      "POST /api/shop:create_item action shop.create_item",
      "POST /api/shop:whoami action shop.whoami",
      "POST /api/shop:who_calls action shop.who_calls",
      "POST /api/shop:show action shop.show",
      "POST /api/shop:count action shop.count",
      `GET /items/:id route ${model.routes[0]!.source}`,
      `POST /items route ${model.routes[1]!.source}`,
      `GET /items/all route ${model.routes[2]!.source}`,
      // Most specific first, then one entry per method of a route file.
      "GET /api/items file app/api/items/route.svc",
      "POST /api/items file app/api/items/route.svc",
      "GET /api/items/:name file app/api/items/[name]/route.svc",
      "GET /items page app/items/page.html",
      "GET /shelf/:name page app/shelf/[name]/page.html",
      "GET /style.css asset public/style.css",
    ]);
  });

  test("names the segments of a path with parameters only: those are matched segment by segment", () => {
    const segmented = model.routeTable.filter((e) => e.segments !== undefined).map((e) => [e.path, e.segments]);
    expect(segmented).toEqual([
      ["/items/:id", ["items", ":id"]],
      ["/api/items/:name", ["api", "items", ":name"]],
      ["/shelf/:name", ["shelf", ":name"]],
    ]);
  });
});

describe("endpoints", () => {
  const model = analyzed();
  const endpoint = (name: string) => [...model.queries, ...model.actions].find((t) => t.name === name)?.endpoint;

  test("a public query or action has its URL; a private one route files call is reached through them only", () => {
    expect(endpoint("list_items")).toEqual({ kind: "url", method: "GET", path: "/api/shop:list_items" });
    expect(endpoint("create_item")).toEqual({ kind: "url", method: "POST", path: "/api/shop:create_item" });
    expect(endpoint("item_by_name")).toEqual({ kind: "route files" });
    expect(endpoint("add_item")).toEqual({ kind: "route files" });
  });

  test("a webhook's handler is reached through its webhook; a private query nothing calls, not at all", () => {
    expect(endpoint("record")).toEqual({ kind: "webhook", webhook: { module: "shop", name: "pushed" } });
    expect(endpoint("unused_items")).toBeNull();
  });
});

describe("what an action reaches", () => {
  const model = analyzed();
  const action = (name: string) => model.actions.find((a) => a.name === name)!;

  test("fail statuses: its own in branches and loops, and those of the actions and fns it calls, ascending", () => {
    expect(action("show").failStatuses).toEqual([400, 404]);
    expect(action("add_item").failStatuses).toEqual([409, 422]);
    expect(action("create_item").failStatuses).toEqual([409, 422]);
    expect(action("record").failStatuses).toEqual([]);
    // A json member that does not fit its slot answers 400.
    expect(action("count").failStatuses).toEqual([400]);
  });

  test("reads the caller: itself, or through an action it calls", () => {
    expect(action("whoami").readsCaller).toBe(true);
    expect(action("who_calls").readsCaller).toBe(true);
    expect(action("create_item").readsCaller).toBe(false);
  });
});
