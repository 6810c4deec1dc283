// openapi.json and client.ts of the examples and fixtures: valid OpenAPI 3.1 by a validator
// package, every public endpoint, route and route-file block described with the statuses
// it can answer, security where `requires` is, nothing private, and the same bytes twice.
// The client type-checks under `tsc --strict` (tests/http/client.test.ts drives it).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "../../support/jest.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import ts from "typescript";
import { build, formatDiagnostics } from "../../../compiler/index.js";
import type { DiscoverTarget } from "../../../compiler/project/discover.js";
import { resolveTarget } from "../../../compiler/cli/target.js";
import { apiNames, componentSchemas } from "../../../compiler/generate/openapi/document.js";
import { repoRoot } from "../../support/paths.js";

type Json = any;

async function outputs(target: DiscoverTarget): Promise<{ openapi: Json; text: string; client: string }> {
  const result = await build(target, { runtimeImport: "svc/runtime" });
  if (result.files.length === 0) throw new Error(formatDiagnostics(result));
  const file = (p: string) => String(result.files.find((f) => f.path === p)?.contents);
  return { openapi: JSON.parse(file("openapi.json")), text: file("openapi.json"), client: file("client.ts") };
}

const example = (name: string): DiscoverTarget => ({ mode: "project", dir: join(repoRoot, "examples", name) });
function fixture(name: string): DiscoverTarget {
  const target = resolveTarget({ positional: join(repoRoot, "fixtures", name, "input") });
  if (typeof target === "string") throw new Error(target);
  return target;
}

async function validate(doc: Json): Promise<{ valid: boolean; errors: unknown }> {
  const result = await new Validator().validate(doc);
  return { valid: result.valid, errors: result.errors };
}

/** Every operation of a document: `GET /path` → the operation object. */
function ops(doc: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const [path, item] of Object.entries<Json>(doc.paths)) for (const [m, op] of Object.entries<Json>(item)) out.set(`${m.toUpperCase()} ${path}`, op);
  return out;
}

const statuses = (op: Json) => Object.keys(op.responses).map(Number);

describe("openapi.json of the task tracker", () => {
  test("is valid OpenAPI 3.1, and the same bytes on a second build", async () => {
    const first = await outputs(example("task_tracker"));
    expect(await validate(first.openapi)).toEqual({ valid: true, errors: undefined });
    expect(first.openapi.openapi).toBe("3.1.0");
    expect((await outputs(example("task_tracker"))).text).toBe(first.text);
  });

  test("describes every endpoint, route and route-file block with what it answers", async () => {
    const { openapi } = await outputs(example("task_tracker"));
    const all = ops(openapi);
    expect([...all.keys()].sort()).toEqual([
      "DELETE /v1/tasks/{id}",
      "GET /api/task_tracker",
      "GET /api/task_tracker/{id}",
      "GET /api/task_tracker:get_task",
      "GET /api/task_tracker:list_open_tasks",
      "GET /api/task_tracker:list_tasks",
      "GET /v1/tasks",
      "GET /v1/tasks/open",
      "GET /v1/tasks/{id}",
      "POST /api/task_tracker",
      "POST /api/task_tracker/{id}",
      "POST /api/task_tracker:complete_task",
      "POST /api/task_tracker:create_task",
      "POST /api/task_tracker:delete_task",
      "POST /api/task_tracker:start_task",
      "POST /v1/tasks",
      "POST /v1/tasks/{id}/complete",
      "POST /v1/tasks/{id}/start",
    ]);
    // The webhook's handler has no endpoint; the webhook is under `webhooks`.
    expect(all.has("POST /api/task_tracker:task_from_github_issue")).toBe(false);
    expect(Object.keys(openapi.webhooks)).toEqual(["github_issues"]);
    expect(openapi.webhooks.github_issues.post.description).toContain("POST /webhooks/github");

    // Query: arguments in the query string, typed, with defaults; the rows in the envelope.
    const list = all.get("GET /api/task_tracker:list_tasks");
    expect(list.description).toBe("Tasks, newest first; `status` filters when given.");
    expect(list.parameters).toEqual([
      { name: "status", in: "query", required: false, schema: { type: ["string", "null"] } },
      { name: "limit", in: "query", required: false, schema: { type: "integer", default: 50 } },
      { name: "offset", in: "query", required: false, schema: { type: "integer", default: 0 } },
    ]);
    expect(list.responses["200"].content["application/json"].schema).toEqual({
      type: "object",
      properties: { ok: { const: true }, data: { type: "array", items: { $ref: "#/components/schemas/Task" } } },
      required: ["ok", "data"],
    });
    expect(statuses(list)).toEqual([200, 400, 503]);

    // Action: JSON or form body; `fail 404` and the default `fail` (400) found in its body.
    const start = all.get("POST /api/task_tracker:start_task");
    expect(Object.keys(start.requestBody.content)).toEqual(["application/json", "application/x-www-form-urlencoded"]);
    expect(start.requestBody.content["application/json"].schema).toEqual({
      type: "object",
      properties: { id: { type: "string" }, assignee: { type: "string" } },
      required: ["id", "assignee"],
    });
    expect(statuses(start)).toEqual([200, 400, 404, 409, 413, 415, 422, 503]);
    expect(start.parameters.map((p: Json) => p.name)).toEqual(["Idempotency-Key"]);
    expect(statuses(all.get("POST /api/task_tracker:create_task"))).not.toContain(404);

    // A declared route: the path parameter leaves the body.
    const route = all.get("POST /v1/tasks/{id}/start");
    expect(route.parameters[0]).toEqual({ name: "id", in: "path", required: true, schema: { type: "string" } });
    expect(Object.keys(route.requestBody.content["application/json"].schema.properties)).toEqual(["assignee"]);

    // Route files: `{records}`, `{result}` (never null after a fetch, else 404), 303 for a browser's form.
    const records = all.get("GET /api/task_tracker").responses["200"].content["application/json"].schema.properties.data;
    expect(records).toEqual({ type: "object", properties: { records: { type: "array", items: { $ref: "#/components/schemas/Task" } } }, required: ["records"] });
    const fetched = all.get("GET /api/task_tracker/{id}");
    expect(fetched.responses["200"].content["application/json"].schema.properties.data.properties.result).toEqual({ $ref: "#/components/schemas/Task" });
    expect(statuses(fetched)).toContain(404);
    const blocks = all.get("POST /api/task_tracker/{id}");
    expect(blocks.parameters.find((p: Json) => p.name === "handler").schema.enum).toEqual(["start_task", "complete_task", "delete_task"]);
    expect(statuses(blocks)).toContain(303);
    expect(blocks.responses["303"].headers.Location).toBeDefined();

    // Rows: nullable where the resource says, enums as enums, `///` docs as descriptions.
    const task = openapi.components.schemas.Task;
    expect(task.description).toBe("A unit of work on the board.");
    expect(task.properties.description).toEqual({ type: ["string", "null"] });
    expect(task.properties.priority).toEqual({ type: "string", enum: ["low", "medium", "high", "critical"] });
    expect(task.properties.created_at).toEqual({ type: "string", format: "date-time" });
    expect(task.required).toContain("completed_at");
    // No [auth]: no scheme, and every operation says it is open to everyone (`security: []`,
    // as Redocly's security-defined rule asks), webhooks too (a signature is no HTTP scheme).
    expect(openapi.components.securitySchemes).toBeUndefined();
    expect([...all.values()].filter((o) => !Array.isArray(o.security) || o.security.length !== 0)).toEqual([]);
    expect(Object.values(openapi.webhooks).map((w: any) => w.post.security)).toEqual([[]]);
    // No public_url in its svc.toml: the server the description was fetched from.
    expect(openapi.servers).toEqual([{ url: "/", description: expect.any(String) }]);
  });
});

describe("openapi.json of examples/accounts (identity)", () => {
  test("is valid; security schemes from [auth], and `requires` on the operations that have it", async () => {
    const { openapi } = await outputs(example("accounts"));
    expect(await validate(openapi)).toEqual({ valid: true, errors: undefined });
    expect(openapi.components.securitySchemes).toEqual({
      jwt: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: expect.any(String) },
      // `Token` is no registered HTTP scheme: an apiKey in the Authorization header, as
      // RealWorld's own spec describes it, so validating tools can check it.
      jwtToken: { type: "apiKey", in: "header", name: "Authorization", description: expect.stringContaining("Authorization: Token <jwt>") },
      session: { type: "apiKey", in: "cookie", name: expect.any(String), description: expect.any(String) },
    });
    const all = ops(openapi);
    const me = all.get("POST /api/accounts:me");
    expect(me.security).toEqual([{ jwt: [] }, { jwtToken: [] }, { session: [] }]);
    expect(statuses(me)).toEqual(expect.arrayContaining([401, 404]));
    expect(statuses(me)).not.toContain(403);
    const admin = all.get("POST /api/accounts:count_notes");
    expect(admin.security).toEqual([{ jwt: ["admin"] }, { jwtToken: ["admin"] }, { session: ["admin"] }]);
    expect(statuses(admin)).toEqual(expect.arrayContaining([401, 403]));
    // Anyone may call whoami; a credential changes its answer.
    expect(all.get("POST /api/accounts:whoami").security[0]).toEqual({});
    // Anyone may sign up: `security: []`, its `fail 422`, and the unique e-mail's 409 (two sign-ups at once).
    expect(all.get("POST /api/accounts:sign_up").security).toEqual([]);
    expect(statuses(all.get("POST /api/accounts:sign_up"))).toEqual(expect.arrayContaining([409, 422]));
    // Calls that handle credentials are never recorded under an Idempotency-Key: the header is not offered for them.
    const keyHeader = (op: Json) => (op.parameters ?? []).some((p: Json) => p.name === "Idempotency-Key");
    for (const op of ["POST /api/accounts:sign_in", "POST /api/accounts:sign_up", "POST /api/users/login", "POST /session"]) expect([op, keyHeader(all.get(op))]).toEqual([op, false]);
    for (const op of ["POST /api/accounts:add_note", "POST /api/notes", "POST /notes"]) expect([op, keyHeader(all.get(op))]).toEqual([op, true]);
    // A route file invoking an action that `requires auth` needs a caller too.
    expect(all.get("POST /notes").security).toEqual([{ jwt: [] }, { jwtToken: [] }, { session: [] }]);
    // A password field is never in an answer, so never in a row's schema; no answer has a
    // whole account, so the file leaves Account out.
    const model = (await build(example("accounts"))).model!;
    const account = componentSchemas(model, apiNames(model)).get("Account")!;
    expect(Object.keys(account.properties as object)).toEqual(["id", "email", "name", "role", "created_at"]);
    expect(openapi.components.schemas.Account).toBeUndefined();
    expect(openapi.components.schemas.Note).toBeDefined();
    expect(openapi.components.schemas.ErrorEnvelope.properties.ok).toEqual({ const: false });
  });
});

describe("openapi.json of fixtures", () => {
  test.each(["private-and-composition", "lists-and-types", "json-members", "webhooks-and-auth", "app-two-modules", "identity-accounts"])("%s is valid OpenAPI 3.1", async (name) => {
    const { openapi } = await outputs(fixture(name));
    expect(await validate(openapi)).toEqual({ valid: true, errors: undefined });
  });

  test("private queries and actions are not described", async () => {
    const { openapi, client } = await outputs(fixture("private-and-composition"));
    const result = await build(fixture("private-and-composition"));
    const privates = [...result.model!.queries, ...result.model!.actions].filter((e) => e.private);
    expect(privates.length).toBeGreaterThan(0);
    for (const p of privates) {
      expect(Object.keys(openapi.paths)).not.toContain(`/api/${p.module}:${p.name}`);
      expect(client).not.toContain(`"/api/${p.module}:${p.name}"`);
    }
  });

  test("record types are components, list arguments keep their bound", async () => {
    const { openapi } = await outputs(fixture("lists-and-types"));
    const model = (await build(fixture("lists-and-types"))).model!;
    const names = apiNames(model);
    expect(model.types?.length).toBeGreaterThan(0);
    for (const t of model.types ?? []) expect(Object.keys(openapi.components.schemas)).toContain(names.recordType(t.module, t.name));
    expect(JSON.stringify(openapi.paths)).toContain('"maxItems"');
  });
});

describe("client.ts", () => {
  test.each(["task_tracker", "accounts", "conduit"])("of %s type-checks under tsc --strict", async (name) => {
    const { client } = await outputs(example(name));
    const file = join(repoRoot, "build", "tmp", `client-${name}.ts`);
    const host = ts.createCompilerHost(options());
    const read = host.readFile.bind(host);
    host.readFile = (f) => (f === file ? client : read(f));
    const exists = host.fileExists.bind(host);
    host.fileExists = (f) => f === file || exists(f);
    const program = ts.createProgram([file], options(), host);
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.getLineAndCharacterOfPosition(d.start ?? 0).line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(diagnostics).toEqual([]);
  });
});

/** A browser or Node project's `tsc --strict`: the DOM's fetch types, no @types/node. */
function options(): ts.CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: [],
    skipLibCheck: true,
  };
}

describe("openapi.json of routes that respond (fixtures/respond-routes)", () => {
  const json = (op: Json, status: string) => op.responses[status].content?.["application/json"]?.schema;

  test("their status, a body typed from the respond expression, their headers, no envelope", async () => {
    const { openapi, client } = await outputs(fixture("respond-routes"));
    expect(await validate(openapi)).toEqual({ valid: true, errors: undefined });
    const all = ops(openapi);
    // `respond 201 { article: result } header "Location" = …`: the action's record, no envelope.
    const create = all.get("POST /api/articles");
    expect(statuses(create).filter((s) => s < 300)).toEqual([201]);
    expect(json(create, "201")).toEqual({ type: "object", properties: { article: { $ref: "#/components/schemas/Article" } }, required: ["article"] });
    expect(create.responses["201"].headers).toEqual({ Location: { schema: { type: "string" } } });
    // A header may be absent, so its member is not required; a `one` query that finds nothing is a 404.
    const get = all.get("GET /api/articles/{slug}");
    expect(json(get, "200")).toEqual({
      type: "object",
      properties: { article: { $ref: "#/components/schemas/Article" }, requestId: { type: "string" } },
      required: ["article"],
    });
    expect(statuses(get)).toContain(404);
    // 204: no body at all.
    const del = all.get("DELETE /api/articles/{slug}");
    expect(Object.keys(del.responses).filter((s) => s < "300")).toEqual(["204"]);
    expect(del.responses["204"].content).toBeUndefined();
    // A block: `records` is the query's rows, input.base_url text, a literal its own type; a
    // header in a list is text or null.
    expect(json(all.get("GET /api/notes"), "200")).toEqual({
      type: "object",
      properties: { notes: { type: "array", items: { $ref: "#/components/schemas/Note" } }, base: { type: "string" }, offset: { type: "integer" } },
      required: ["notes", "base", "offset"],
    });
    expect(json(all.get("POST /api/notes"), "201").properties.note).toEqual({
      type: "object",
      properties: { text: { type: "string" }, tags: { type: "array", items: { type: ["string", "null"] } } },
      required: ["text", "tags"],
    });
    // The client types follow, and a 204 is void.
    expect(client).toContain("postApiArticles(args: PostApiArticlesArgs, call?: CallOptions): Promise<{ article: Article }>");
    expect(client).toContain("deleteApiArticlesSlug(args: DeleteApiArticlesSlugArgs, call?: CallOptions): Promise<void>");
    expect(client).toContain("getApiNotes(call?: CallOptions): Promise<{ notes: Note[]; base: string; offset: number }>");
  });

  test("their errors take the [errors] shape, with validation_status; the rest keep the envelope", async () => {
    const { openapi, client } = await outputs(fixture("respond-routes"));
    const all = ops(openapi);
    const create = all.get("POST /api/articles");
    expect(create.responses["422"]).toEqual({ $ref: "#/components/responses/ShapedError422" });
    expect(create.responses["400"]).toEqual({ $ref: "#/components/responses/ShapedError400" });
    expect(openapi.components.responses.ShapedError422.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorBody" });
    expect(openapi.components.schemas.ErrorBody).toEqual({
      type: "object",
      properties: { errors: { type: "object", properties: { body: { type: "array", items: { type: "string" } } }, required: ["body"] } },
      required: ["errors"],
      description: "The error body of routes that `respond`: svc.toml `[errors]`.",
    });
    // A query route without a 422 of its own gets one: argument checks answer validation_status.
    expect(statuses(all.get("GET /api/articles"))).toContain(422);
    // The unshaped route to the same action keeps the envelope, its data and its errors.
    const plain = all.get("POST /v1/articles");
    expect(json(plain, "200").properties.ok).toEqual({ const: true });
    expect(plain.responses["400"]).toEqual({ $ref: "#/components/responses/Error400" });
    // The client reads a shaped error's message where [errors] puts it.
    expect(client).toContain('shaped: true, message: ["errors", "body", 0] }');
  });
});

describe("openapi.json of blocks at one path that answer differently", () => {
  test("PATCH is described with its body; ?handler= blocks keep each status and error shape", async () => {
    const root = join(repoRoot, "build", "tmp");
    mkdirSync(root, { recursive: true });
    const dir = mkdtempSync(join(root, "openapi-mixed-"));
    const files: Record<string, string> = {
      "svc.toml": '[project]\nname = "mixed"\n[errors]\nbody = { error = { message = "{message}", status = "{status}" } }\nvalidation_status = 422\n',
      "modules/m/m.svc": "module m\n\nresource note {\n  id: id\n  text: text\n}\n\naction add(text: text) {\n  return insert note { text: text }\n}\n\nroute PATCH \"/v1/notes\" => add respond 202\n",
      "app/api/notes/route.svc": "POST {\n  invoke m.add { text: input.body.text }\n  respond 201 { id: result.id } header \"Location\" = \"/notes/\" + result.id\n}\n\nPOST plain {\n  invoke m.add { text: input.body.text }\n}\n",
    };
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const { openapi, client } = await outputs({ mode: "project", dir });
      expect(await validate(openapi)).toEqual({ valid: true, errors: undefined });
      const patch = ops(openapi).get("PATCH /v1/notes");
      expect(patch.requestBody.content["application/json"].schema).toEqual({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
      // No body with `respond 202`: the note itself.
      expect(patch.responses["202"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Note" });
      expect(openapi.components.schemas.ErrorBody.properties.error).toEqual({
        type: "object",
        properties: { message: { type: "string" }, status: { type: "integer" } },
        required: ["message", "status"],
      });
      expect(client).toContain('message: ["error", "message"]');
      const post = ops(openapi).get("POST /api/notes");
      expect(Object.keys(post.responses).filter((s) => s < "300")).toEqual(["200", "201"]);
      expect(post.responses["201"].headers).toEqual({ Location: { schema: { type: "string" } } });
      expect(post.responses["201"].content["application/json"].schema).toEqual({ type: "object", properties: { id: { type: "string" } }, required: ["id"] });
      expect(post.responses["200"].content["application/json"].schema.properties.ok).toEqual({ const: true });
      // A 400 comes from either block, each in its own shape.
      expect(post.responses["400"].content["application/json"].schema).toEqual({ anyOf: [{ $ref: "#/components/schemas/ErrorEnvelope" }, { $ref: "#/components/schemas/ErrorBody" }] });
      // The module route has one kind only.
      expect(patch.responses["422"]).toEqual({ $ref: "#/components/responses/ShapedError422" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("openapi.json's servers", () => {
  test("public_url in svc.toml is the one server", async () => {
    const root = join(repoRoot, "build", "tmp");
    mkdirSync(root, { recursive: true });
    const dir = mkdtempSync(join(root, "openapi-servers-"));
    const files: Record<string, string> = {
      "svc.toml": '[project]\nname = "served"\n[server]\npublic_url = "https://api.example.com"\n',
      "modules/m/m.svc": "module m\n\nresource note {\n  id: id\n  text: text\n}\n\nquery notes() {\n  SELECT id, text FROM note\n}\n",
    };
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const { openapi } = await outputs({ mode: "project", dir });
      expect(await validate(openapi)).toEqual({ valid: true, errors: undefined });
      expect(openapi.servers).toEqual([{ url: "https://api.example.com" }]);
      expect(ops(openapi).get("GET /api/m:notes").security).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("answers of other media types (fixtures/respond-media)", () => {
  test("are listed under their media type as strings, a +json type with its schema; the client returns the text", async () => {
    const { openapi, client } = await outputs(fixture("respond-media"));
    expect(await validate(openapi)).toEqual({ valid: true, errors: undefined });
    const all = ops(openapi);
    expect(all.get("GET /plaintext").responses["200"].content).toEqual({ "text/plain; charset=utf-8": { schema: { type: "string" } } });
    expect(all.get("GET /items/{id}/page").responses["200"].content).toEqual({ "text/html; charset=utf-8": { schema: { type: "string" } } });
    expect(all.get("GET /items/{id}/svg").responses["200"].content).toEqual({ "image/svg+xml": { schema: { type: "string" } } });
    const problem = all.get("GET /items/{id}/problem").responses["200"].content;
    expect(Object.keys(problem)).toEqual(["application/problem+json"]);
    expect(problem["application/problem+json"].schema.properties.title).toEqual({ type: "string" });
    // The generated client hands a text answer over as a string, and parses the +json one.
    expect(client).toMatch(/"GET",\s*"\/plaintext",[\s\S]*?text: true/);
    expect(client).not.toMatch(/"\/items\/\{id\}\/problem",[^)]*text: true/);
  });
});
