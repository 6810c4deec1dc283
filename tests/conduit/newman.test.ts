// issue 12 part 8: the official RealWorld test suite (Conduit.postman_collection.json, run
// by newman's Node API) against examples/conduit on a fresh SQLite file, with nothing
// between the suite and the server. Every assertion of every request must pass.

import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { type Conduit, runCollection, startConduit } from "./support.js";

let conduit: Conduit;

beforeAll(async () => {
  conduit = await startConduit();
});

afterAll(async () => {
  expect(await conduit?.stop()).toBe(0);
});

test("the official Conduit collection passes every assertion on SQLite", async () => {
  const run = await runCollection(`${conduit.server.url}/api`);
  if (run.failures.length > 0) console.error(`newman failures:\n${run.failures.join("\n")}`);
  expect(run.failures).toEqual([]);
  expect(run.scriptErrors).toBe(0);
  expect(run.requests).toEqual({ total: 32, failed: 0 });
  // The README says "about 311"; the collection at the pinned commit has exactly 311.
  expect(run.assertions).toEqual({ total: 311, failed: 0 });
});
