// Rate limits in the server spec (docs/language.md §2.6): each `limit` as a plain object on
// its endpoint, route or route-file block, with a small function reading an argument key
// where there is one, and the sign-in throttle's rates (runtime/limits).

import type { LimitKeyModel, LimitModel } from "../../analyze/config/limits.js";
import type { Model } from "../../analyze/model/model.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function member(object: string, name: string): string {
  return IDENTIFIER.test(name) ? `${object}.${name}` : `${object}[${JSON.stringify(name)}]`;
}

function key(by: LimitKeyModel): string {
  switch (by.kind) {
    case "address":
      return `by: "address"`;
    case "caller":
      return `by: "caller"`;
    // An endpoint's arguments as the request gave them, path parameters merged in.
    case "arg":
      return `by: "value", value: (input) => ${member("input.args", by.name)}`;
    // A route-file block: the request value the block passes for the argument.
    case "input":
      return `by: "value", value: (input) => ${member(`input.${by.from}`, by.name)}`;
    case "literal":
      return `by: "value", value: () => ${JSON.stringify(by.value)}`;
  }
}

/** `[{ name, count, windowS, burst, by, value? }, …]` */
export function limitsLiteral(limits: readonly LimitModel[]): string {
  const items = limits.map(
    (l) => `{ name: ${JSON.stringify(l.name)}, count: ${l.count}, windowS: ${l.windowS}, burst: ${l.burst}, ${key(l.by)} }`,
  );
  return `[${items.join(", ")}]`;
}

/** `, limits: […]` for an object literal; nothing without limits. */
export function limitsField(limits: readonly LimitModel[] | undefined): string {
  return limits === undefined || limits.length === 0 ? "" : `, limits: ${limitsLiteral(limits)}`;
}

/** The spec's `limits` entry: present when the server keeps rate counters. */
export function limitsSpecFields(model: Model): string[] {
  if (model.limits === undefined) return [];
  const t = model.limits.throttle;
  const rate = (r: { count: number; windowS: number; burst: number }) => `{ count: ${r.count}, windowS: ${r.windowS}, burst: ${r.burst} }`;
  const throttle = t === null ? "null" : `{ account: ${rate(t.account)}, address: ${rate(t.address)} }`;
  return [`limits: { throttle: ${throttle} }`];
}
