// Lists on every backend (issue 12 part 4): a loop of inserts in one transaction, rolled
// back whole by a fail inside it, and list arguments bound in SQL (`x IN @tags`, rendered
// per dialect: json_each, jsonb_array_elements_text, JSON_TABLE). Each backend's transcript
// is compared with SQLite's.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const available = { postgres: await backendAvailable("postgres"), mysql: await backendAvailable("mysql") };

interface Step {
  step: string;
  status: number;
  body: unknown;
}

async function transcript(url: string): Promise<Step[]> {
  const steps: Step[] = [];
  const ids = new Map<string, string>();
  const api = `${url}/api/blog`;
  const record = async (step: string, path: string, json?: unknown) => {
    const r = await call(`${api}:${path}`, json === undefined ? {} : { json });
    const text = r.text
      .replace(/"([0-9A-HJKMNP-TV-Z]{26})"/g, (_, id: string) => {
        if (!ids.has(id)) ids.set(id, `id${ids.size + 1}`);
        return `"${ids.get(id)}"`;
      })
      .replace(/"created_at":"[^"]*"/g, '"created_at":"…"');
    steps.push({ step, status: r.status, body: JSON.parse(text) });
    return r.json;
  };
  const q = (v: unknown) => encodeURIComponent(JSON.stringify(v));
  const one = await record("article with tags", "create_article", { author: "ann", article: { title: "One", body: "b", tagList: ["go", "sql", "go"] } });
  await record("article with other tags", "create_article", { author: "ann", article: { title: "Two", body: "b", tagList: ["js", "sql"] } });
  await record("a blank tag rolls back", "create_article", { author: "ann", article: { title: "Three", body: "b", tagList: ["kept?", " "] } });
  await record("articles by ann", "articles_by?author=ann");
  await record("tagged go or js", `articles_tagged?tags=${q(["go", "js"])}`);
  await record("tagged kept?", `articles_tagged?tags=${q(["kept?"])}`);
  await record("tagged nothing", `articles_tagged?tags=${q([])}`);
  await record("tags of one", `tags_of?article=${one.data.article.id}`);
  await record("tag all, literal list in SQL", "tag_all", { ids: [one.data.article.id], name: "picked" });
  await record("tag all, missing id rolls back", "tag_all", { ids: [one.data.article.id, "01ARZ3NDEKTSV4RRFFQ69G5FAV"], name: "lost" });
  await record("tagged lost", `articles_tagged?tags=${q(["lost"])}`);
  for (const [name, age] of [["ann", 30], ["bob", 40], ["cy", null]] as const) {
    await record(`register ${name}`, "register", { user: { username: name, email: `${name}@x`, password: "p", age } });
  }
  await record("people aged 30 or 50", `people_aged?ages=${q([30, 50])}`);
  await record("people aged 40 or named cy", `people_aged?ages=${q([40])}&names=${q(["cy"])}`);
  await record("a wrong item", `people_aged?ages=${q([40, "x"])}`);
  return steps;
}

interface Running {
  server: TestServer;
  ns?: Namespace;
}

const started: Running[] = [];
let dir: string;

beforeAll(async () => {
  dir = await buildServer({ mode: "module", dir: join(repoRoot, "tests", "http", "projects", "blog") }, "lists-");
});

afterAll(async () => {
  for (const r of started) {
    await r.server.stop();
    await r.ns?.drop();
  }
  removeDir(dir);
});

async function serve(backend: "sqlite" | "postgres" | "mysql"): Promise<string> {
  if (backend === "sqlite") {
    const server = await startServer(dir, ["--db", join(dir, "blog.db"), "--workers", "1"]);
    started.push({ server });
    return server.url;
  }
  const ns = await createNamespace(backend, "lists");
  const server = await startServer(dir, ["--db", ns.url, "--workers", "1"]);
  started.push({ server, ns });
  return server.url;
}

describe("lists on every backend", () => {
  let reference: Step[];

  beforeAll(async () => {
    reference = await transcript(await serve("sqlite"));
  });

  test("sqlite: the reference transcript", () => {
    const body = (step: string) => reference.find((s) => s.step === step)!;
    const titles = (step: string) => (body(step).body as { data: { title: string }[] }).data.map((a) => a.title).sort();
    expect(titles("articles by ann")).toEqual(["One", "Two"]);
    expect(titles("tagged go or js")).toEqual(["One", "Two"]);
    expect(titles("tagged kept?")).toEqual([]);
    expect(titles("tagged nothing")).toEqual([]);
    expect(titles("tagged lost")).toEqual([]);
    expect(body("a blank tag rolls back")).toMatchObject({ status: 422, body: { error: "a tag may not be blank" } });
    expect((body("tags of one").body as { data: { name: string }[] }).data.map((t) => t.name)).toEqual(["go", "sql"]);
    const people = (step: string) => (body(step).body as { data: { username: string }[] }).data.map((p) => p.username);
    expect(people("people aged 30 or 50")).toEqual(["ann"]);
    expect(people("people aged 40 or named cy")).toEqual(["bob", "cy"]);
    expect(body("a wrong item")).toMatchObject({ status: 400, body: { error: "ages[1] must be a whole number between -(2^53-1) and 2^53-1" } });
  });

  for (const backend of ["postgres", "mysql"] as const) {
    (available[backend] ? test : test.skip)(`${backend}: the same transcript as sqlite`, async () => {
      const steps = await transcript(await serve(backend));
      expect(steps).toEqual(reference);
    });
  }
});
