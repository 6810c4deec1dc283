// The generator prints the model's decisions (compiler/analyze/route-table.ts, checks/action-reach.ts)
// and makes none of its own: change a decision in the model and the output follows it.

import { describe, expect, test } from "../../support/jest.js";
import { generateServerTs } from "../../../compiler/generate/index.js";
import { apiNames } from "../../../compiler/generate/openapi/document.js";
import { operations } from "../../../compiler/generate/openapi/operations.js";
import type { Model } from "../../../compiler/analyze/model/model.js";
import { analyzeText } from "../analyze/analyze.js";

const MODULE = `module m

resource note {
  id: id
  body: text
}

query notes() {
  SELECT * FROM note
}

action add(body: text) {
  if body == "" { fail 404 "empty" }
  return insert note { body: body }
}

route GET "/notes" => notes
route POST "/notes" => add
`;

function model(): Model {
  const { model, diagnostics } = analyzeText(MODULE);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return model;
}

/** The `routes` of the generated spec: `METHOD path`, in order. */
async function specRoutes(m: Model): Promise<string[]> {
  const source = await generateServerTs(m, { pretty: false });
  const routes = source.slice(source.indexOf("routes: ["));
  return [...routes.slice(0, routes.indexOf("\n]")).matchAll(/method: "(\w+)", path: "([^"]+)"/g)].map((x) => `${x[1]} ${x[2]}`);
}

describe("the generator prints the model's route table", () => {
  test("in the model's order, entry by entry", async () => {
    const m = model();
    expect(await specRoutes(m)).toEqual(["GET /api/m:notes", "POST /api/m:add", "GET /notes", "POST /notes"]);
    m.routeTable.reverse();
    expect(await specRoutes(m)).toEqual(["POST /notes", "GET /notes", "POST /api/m:add", "GET /api/m:notes"]);
  });

  test("an endpoint the model gives no URL has no entry, no endpoint and no input function", async () => {
    const m = model();
    const add = m.actions.find((a) => a.name === "add")!;
    add.endpoint = null;
    // A module route may not name a private action: the one to `add` goes with its URL.
    const toAdd = m.routes.find((r) => r.target.name === "add")!;
    m.routes = m.routes.filter((r) => r !== toAdd);
    m.routeTable = m.routeTable.filter((e) => {
      const t = e.target;
      return !(t.kind === "endpoint" && t.target.name === "add") && !(t.kind === "route" && t.source === toAdd.source);
    });
    const source = await generateServerTs(m, { pretty: false });
    expect(source).not.toContain("addEndpoint");
    expect(source).not.toContain("addInput");
    expect(source).toContain("function add(");
  });
});

describe("openapi operations print the model's statuses and caller reads", () => {
  test("an action's fail statuses are the model's", () => {
    const m = model();
    const add = m.actions.find((a) => a.name === "add")!;
    expect(add.failStatuses).toEqual([404]);
    const errorsOf = () => operations(m, apiNames(m)).find((o) => o.path === "/api/m:add")!.errors;
    expect(errorsOf()).toContain(404);
    add.failStatuses = [418];
    expect(errorsOf()).toContain(418);
    expect(errorsOf()).not.toContain(404);
  });

  test("a caller read makes the security optional", () => {
    const m = model();
    const add = m.actions.find((a) => a.name === "add")!;
    const security = () => operations(m, apiNames(m)).find((o) => o.path === "/api/m:add")!.security;
    expect(security()).toEqual({ kind: "none" });
    add.readsCaller = true;
    expect(security()).toEqual({ kind: "optional" });
  });
});
