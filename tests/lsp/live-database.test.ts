// The live database check of `svc lsp`: off unless the user turns it on; when on, a save
// asks the database svc.toml names about every statement, as `svc check --db` does. Here
// the database cannot be reached (port 1), which the server reports as svc check --db
// reports it (SVC3154, the password hidden): the check ran, against svc.toml's URL.

import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { LspClient, uri } from "../../bench/lsp/client.js";
import { FILES, writeProject } from "./project.js";

const URL = "postgres://app:s3cret@127.0.0.1:1/app?connect_timeout_ms=500";
let root: string;
let client: LspClient;
const NOTES = "modules/notes/notes.svc";

beforeAll(async () => {
  root = writeProject({
    ...FILES,
    "svc.toml": `${FILES["svc.toml"]}\n[database]\nbackend = "postgres"\nurl = "${URL}"\n`,
  });
  client = new LspClient();
  const checked = client.nextCheck(root);
  await client.initialize([root]);
  await checked;
});

afterAll(async () => {
  await client.stop();
  rmSync(root, { recursive: true, force: true });
});

test("off by default: opening and saving check without the database", async () => {
  const checked = client.nextCheck(root);
  await client.open(path.join(root, NOTES));
  await checked;
  await client.save(path.join(root, NOTES));
  // A request after the save is answered after it was handled: nothing more was published.
  await client.request("textDocument/hover", path.join(root, NOTES), 0, 0);
  staticCodes = [...client.diagnostics.values()].flat().map((d) => d.code as string);
  // What svc check says for PostgreSQL without a database (a warning of the backend's rules), and nothing from a database.
  expect(staticCodes).toEqual(["SVC3111"]);
});

let staticCodes: string[] = [];

test("turned on, a save asks svc.toml's database, and says so when it cannot", async () => {
  await client.configure({ svc: { liveDatabase: true } });
  const checked = client.nextCheck(root);
  await client.save(path.join(root, NOTES));
  await checked;
  const all = [...client.diagnostics.entries()].flatMap(([u, ds]) => ds.map((d) => ({ u, ...d })));
  expect(all.map((d) => d.code).sort()).toEqual([...staticCodes, "SVC3154"].sort());
  const live = all.find((d) => d.code === "SVC3154")!;
  expect(live.message).toContain("cannot check against postgres://app:***@127.0.0.1:1/app");
  expect(live.message).not.toContain("s3cret");
  expect(live.u).not.toBe(uri(path.join(root, NOTES)));
});
