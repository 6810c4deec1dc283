// Links per row (docs/language.md §4, "Links per row"): a route file passes `input.base_url`
// to an action, whose collecting `for` gives each row its own absolute URL. Todo-Backend's
// `url` member is this shape.

import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await buildTo({ mode: "project", dir: join(repoRoot, "tests", "http", "projects", "links") });
  server = await startServer(dir, ["--db", join(dir, "links.db")]);
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

test("each row's url is the server's base URL, the path and its int key", async () => {
  for (const title of ["one", "two"]) {
    const r = await call(`${server.url}/api/todo:add`, { json: { title } });
    expect(r.status).toBe(200);
  }
  const r = await call(`${server.url}/api/todos`, { headers: { accept: "application/json" } });
  expect(r.status).toBe(200);
  expect(r.json).toEqual([
    { id: 1, title: "one", url: `${server.url}/todos/1` },
    { id: 2, title: "two", url: `${server.url}/todos/2` },
  ]);
});
