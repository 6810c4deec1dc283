import { type StatementStructures, StructureKind, VariableDeclarationKind } from "../ts-morph.js";
import type { ActionModel, Model, Requirement } from "../../analyze/model/model.js";
import { literal } from "../literal.js";
import type { Names } from "../names.js";
import { authSpec } from "./identity.js";

// Webhooks, credentials and auth in the generated server: one `rt.WebhookSpec` per webhook
// (the deliveries table and its insert are the runtime's own, runtime/webhooks/table.ts), the spec's `credentials`/`auth`/`webhooks`
// entries, and the `rt.authorize` call that opens an action with `requires`. Everything
// here is absent from the output of a model without webhooks or `[auth]`. Credential
// values never appear: only where the server reads them.

type Out = (string | StatementStructures)[];

/** A WebhookSpec per webhook. */
export function webhookSection(model: Model, names: Names): Out {
  if (model.deliveryStore === undefined || model.webhooks.length === 0) return [];
  const out: Out = ["// ---- webhooks ----"];
  for (const w of model.webhooks) {
    const action = handlerOf(model, w.handler.module, w.handler.name);
    const fn = names.fn(w.handler.module, w.handler.name);
    const input = names.input(w.handler.module, w.handler.name);
    const fields = [
      `name: ${JSON.stringify(`${w.module}.${w.name}`)}`,
      `provider: ${JSON.stringify(w.provider)}`,
      `credential: ${JSON.stringify(w.credential)}`,
      `path: ${JSON.stringify(w.path)}`,
      `params: ${literal(action.params.map((p) => p.name))}`,
      `handler: (tx, input) => ${fn}(tx, ${input}(input))`,
    ];
    if (action.isolation !== undefined) fields.push(`isolation: ${JSON.stringify(action.isolation)}`);
    out.push({
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      docs: [
        `\`${w.module}.${w.name}\`: ${w.provider} deliveries to POST ${w.path} run \`${w.handler.name}\` once each.`,
      ],
      declarations: [
        { name: names.webhook(w.module, w.name), type: "rt.WebhookSpec", initializer: `{\n${fields.join(",\n")}\n}` },
      ],
    });
  }
  return out;
}

/** `credentials`, `auth` and `webhooks` entries of the spec, each only when the model has them. */
export function securitySpecFields(model: Model, names: Names): string[] {
  const fields: string[] = [];
  if (model.credentials !== undefined && model.credentials.length > 0)
    fields.push(`credentials: ${literal(model.credentials)}`);
  const auth = authSpec(model);
  if (auth !== null) fields.push(`auth: ${auth}`);
  if (model.webhooks.length > 0 && model.deliveryStore !== undefined) {
    fields.push(`webhooks: [${model.webhooks.map((w) => names.webhook(w.module, w.name)).join(", ")}]`);
  }
  return fields;
}

/** The statement that opens the endpoint of an action with `requires`: a 401 or 403 before its arguments are read. */
export function authorizeCall(requires: Requirement | null): string {
  return requires === null ? "" : `rt.authorize(ctx, ${literal(requires)});\n`;
}

function handlerOf(model: Model, module: string, name: string): ActionModel {
  const action = model.actions.find((a) => a.module === module && a.name === name);
  // The analyzer drops a webhook whose handler is not an action of its module.
  if (action === undefined) throw new Error(`webhook handler ${module}.${name} is not in the model`);
  return action;
}
