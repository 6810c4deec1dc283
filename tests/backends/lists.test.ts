// Lists on every backend (issue 12 part 4): a loop of inserts in one transaction, rolled
// back whole by a fail inside it, and list arguments bound in SQL (`x IN @tags`, rendered
// per dialect: json_each, jsonb_array_elements_text, JSON_TABLE). Each backend's transcript
// is compared with SQLite's.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { repoRoot } from "../support/paths.js";
import { removeDir } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { backendAvailable } from "./support/databases.js";
import { type Step, Transcript, serversPerBackend } from "./support/transcript.js";

const available = { postgres: await backendAvailable("postgres"), mysql: await backendAvailable("mysql") };

async function transcript(url: string): Promise<Step[]> {
  const t = new Transcript(`${url}/api/blog`, (text) => text.replace(/"created_at":"[^"]*"/g, '"created_at":"…"'));
  const { record } = t;
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
  return t.steps;
}

let dir: string;
const servers = serversPerBackend(() => dir, "blog.db", "lists");

beforeAll(async () => {
  dir = await buildServer({ mode: "module", dir: join(repoRoot, "tests", "http", "projects", "blog") }, "lists-");
});

afterAll(async () => {
  await servers.stopAll();
  removeDir(dir);
});

describe("lists on every backend", () => {
  let reference: Step[];

  beforeAll(async () => {
    reference = await transcript(await servers.serve("sqlite"));
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
      const steps = await transcript(await servers.serve(backend));
      expect(steps).toEqual(reference);
    });
  }
});
