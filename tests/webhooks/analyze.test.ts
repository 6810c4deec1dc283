// The analyzer's side of webhooks, credentials and auth: what the model says the server
// reads at start, the diagnostics around handlers, and what the generator makes of it.

import { describe, expect, test } from "../support/jest.js";
import { defaultConfig } from "../../compiler/project/config.js";
import { analyze } from "../../compiler/analyze/index.js";
import type { Model } from "../../compiler/analyze/model/model.js";
import type { Diagnostic } from "../../compiler/diagnostics/diagnostic.js";
import { generateServerTs } from "../../compiler/generate/index.js";
import { check } from "../../compiler/index.js";
import { parseModule } from "../../compiler/parse/index.js";
import { hooksProject } from "./support.js";

const HANDLER = `module m

resource hit {
  id: id
  body: json
}

action on_push(payload: json, event: text?, delivery: text?) {
  return insert hit { body: payload }
}

action guarded() requires role "admin" {
  return 1
}
`;

const WEBHOOK = `
webhook push {
  provider: "github"
  secret: credentials.gh
  path: "/hooks/push"
  handler: on_push
}
`;

function run(
  text: string,
  options: { project?: boolean; declared?: string[]; auth?: boolean } = {},
): { model: Model; diagnostics: Diagnostic[] } {
  const parsed = parseModule("m.svc", text);
  const config = defaultConfig();
  for (const name of options.declared ?? []) config.credentials[name] = { env: `${name.toUpperCase()}_VALUE` };
  if (options.auth !== false) config.auth.bearer = { credential: "tokens" };
  const result = analyze({
    name: "t",
    version: "1.0.0",
    mode: options.project ? "project" : "module",
    config,
    modules: [{ dir: ".", files: [parsed.ast] }],
    sources: ["m.svc"],
  });
  return { model: result.model, diagnostics: [...parsed.diagnostics, ...result.diagnostics] };
}

const codes = (ds: Diagnostic[]) => ds.map((d) => d.code);

describe("the model", () => {
  test("lists the credentials the server reads, declared or from SVC_CREDENTIAL_<NAME>, sorted", () => {
    const { model, diagnostics } = run(HANDLER + WEBHOOK, { project: true, declared: ["tokens"] });
    expect(codes(diagnostics)).toEqual(["SVC2044"]);
    expect(model.credentials).toEqual([
      { name: "gh", from: { env: "SVC_CREDENTIAL_GH" }, declared: false },
      { name: "tokens", from: { env: "TOKENS_VALUE" }, declared: true },
    ]);
    expect(model.auth).toEqual({ bearer: { credential: "tokens" } });
    expect(model.deliveryStore?.table).toBe("svc_webhook_deliveries");
  });

  test("a model without webhooks or [auth] has none of these fields (older models stay as they were)", () => {
    const { model } = run(HANDLER.replace('requires role "admin"', ""), { auth: false });
    expect(model).not.toHaveProperty("credentials");
    expect(model).not.toHaveProperty("auth");
    expect(model).not.toHaveProperty("deliveryStore");
  });

  test("an undeclared webhook credential is a warning in a project only, with a did-you-mean", () => {
    expect(codes(run(HANDLER + WEBHOOK).diagnostics)).toEqual([]);
    const typo = run(HANDLER + WEBHOOK.replace("credentials.gh", "credentials.gh_secrt"), {
      project: true,
      declared: ["gh_secret", "tokens"],
    });
    expect(codes(typo.diagnostics)).toEqual(["SVC2044"]);
    expect(typo.diagnostics[0].hint).toBe("did you mean `gh_secret`?");
    expect(codes(run(HANDLER + WEBHOOK, { project: true, declared: ["gh", "tokens"] }).diagnostics)).toEqual([]);
  });
});

describe("handler diagnostics", () => {
  test("parameter types: payload json, event and delivery text", () => {
    const { diagnostics } = run(
      HANDLER.replace("payload: json", "payload: text").replace("event: text?", "event: int?") + WEBHOOK,
    );
    expect(codes(diagnostics)).toEqual(["SVC2043", "SVC2043"]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      "handler parameter `payload` must be of type json, not text",
      "handler parameter `event` must be of type text?, not int",
    ]);
  });

  test("a handler with requires", () => {
    const { diagnostics } = run(HANDLER + WEBHOOK.replace("on_push", "guarded"));
    expect(codes(diagnostics)).toEqual(["SVC2043"]);
    expect(diagnostics[0].message).toMatch(/has `requires`/);
  });

  test("a route to a webhook's handler, wherever it is declared", () => {
    const before = run(HANDLER + `route POST "/replay" => on_push\n` + WEBHOOK);
    const after = run(HANDLER + WEBHOOK + `route POST "/replay" => on_push\n`);
    for (const { diagnostics } of [before, after]) {
      expect(codes(diagnostics)).toEqual(["SVC2045"]);
      expect(diagnostics[0].message).toBe(
        "`on_push` handles webhook `push`; a route to it would run it without checking a signature",
      );
    }
  });

  test("a resource named like the deliveries table, only when there are webhooks", () => {
    const clash = HANDLER.replace("resource hit", "resource svc_webhook_deliveries").replace(
      "insert hit",
      "insert svc_webhook_deliveries",
    );
    expect(codes(run(clash + WEBHOOK).diagnostics)).toEqual(["SVC2046"]);
    // Without webhooks the name is free; the action answering a row with a json field is only SVC2090.
    expect(codes(run(clash).diagnostics).filter((c) => c !== "SVC2090")).toEqual([]);
  });

  test("a param route declared before a webhook on a path it matches does not shadow it", () => {
    const text = HANDLER + `action other(p: text) { return p }\nroute POST "/hooks/:p" => other\n` + WEBHOOK;
    expect(codes(run(text).diagnostics)).toEqual([]);
  });
});

describe("the generated server", () => {
  test("guards protected actions, hides handlers from /api, and holds no credential value", async () => {
    const { model } = run(HANDLER + WEBHOOK, { project: true, declared: ["gh", "tokens"] });
    const source = await generateServerTs(model);
    expect(source).toContain('rt.authorize(ctx, { kind: "role", role: "admin" });');
    expect(source).not.toContain("/api/m:on_push");
    expect(source).toContain('path: "/api/m:guarded"');
    expect(source).toContain("webhooks: [pushWebhook]");
    // svc's own tables (deliveries, idempotency keys) are the runtime's: the spec only says it uses them.
    expect(source).toContain("tables: [hitTable]");
    expect(source).toContain("idempotency: true");
    expect(source).not.toContain("svc_webhook_deliveries");
    expect(source).toContain('credentials: [\n    { name: "gh", from: { env: "GH_VALUE" }, declared: true },');
  });

  test("the test project checks with two warnings: its undeclared hmac secret, and a json column answered", () => {
    const result = check({ mode: "project", dir: hooksProject });
    expect(result.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      'SVC2090 query `list_received` answers `payload` with no known type: openapi.json and client.ts say "any JSON value" there',
      "SVC2044 credential `hmac_secret` is not declared under [credentials] in svc.toml; the server will read it from SVC_CREDENTIAL_HMAC_SECRET",
    ]);
  });
});
