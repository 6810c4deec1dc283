// Rate limits (docs/language.md §2.6): `limit N per W [by K] [burst B]` on an action, a
// module route or a route-file block, checked here and handed to the generator as plain
// numbers and keys. An action's limits hold wherever it is called from: its endpoint, its
// routes, and the route-file blocks that invoke it (`blockLimits`, with each argument key
// read from what the block passes).

import { limitCodes as codes } from "../../diagnostics/codes/limits.js";
import { closest } from "../../diagnostics/did-you-mean.js";
import type { LimitClause } from "../../parse/ast.js";
import type { RouteArgModel, RouteExprModel } from "../model/app-model.js";
import type { Reporter } from "../shared/context.js";
import { inRange, type RateModel, windowSeconds } from "../../project/config/rate.js";

/** What a counter is keyed by. */
export type LimitKeyModel =
  /** The client address (`--trust-proxy` honoured). */
  | { kind: "address" }
  /** `auth.id`; an anonymous caller counts by address. */
  | { kind: "caller" }
  /** An argument of an endpoint, as the request gives it. */
  | { kind: "arg"; name: string }
  /** In a route-file block: a request value the block passes for the argument. */
  | { kind: "input"; from: "query" | "body" | "params"; name: string }
  /** In a route-file block: a literal the block passes (or "" for an argument it leaves out). */
  | { kind: "literal"; value: string };

export interface LimitModel {
  /** The policy's name in RateLimit headers, and its counters' key: `accounts.sign_in`, `POST /api/users/login`. */
  name: string;
  count: number;
  windowS: number;
  burst: number;
  by: LimitKeyModel;
}

/** svc.toml `[auth.throttle]`, with its defaults (docs/auth.md, Sign-in throttle). */
export interface ThrottleModel {
  account: RateModel;
  address: RateModel;
}

export type { RateModel } from "../../project/config/rate.js";

export interface LimitOwner {
  /** How messages name it: "action `sign_in`", "the route's target `sign_in`", "this block's step". */
  describe: string;
  /** The policy name of its first limit; later ones add `#2`, `#3`. */
  policy: string;
  /** Argument names a `by` may take; null where none may (a block without a step). */
  params: readonly string[] | null;
  /** Does the project say who is calling? */
  identity: boolean;
  file: string;
}

/** The limits of one action, route or block, with a diagnostic for each one that is wrong. */
export function analyzeLimits(clauses: readonly LimitClause[], owner: LimitOwner, r: Reporter): LimitModel[] {
  const out: LimitModel[] = [];
  clauses.forEach((clause, i) => {
    const limit = analyzeLimit(clause, owner, i === 0 ? owner.policy : `${owner.policy}#${i + 1}`, r);
    if (limit !== null) out.push(limit);
  });
  return out;
}

function analyzeLimit(clause: LimitClause, owner: LimitOwner, name: string, r: Reporter): LimitModel | null {
  let ok = true;
  const count = clause.count.value;
  if (!inRange(count)) {
    r.add(codes.badNumber.at(owner.file, clause.count.span, "count", count));
    ok = false;
  }
  const burst = clause.burst === null ? count : clause.burst.value;
  if (clause.burst !== null && !inRange(burst)) {
    r.add(codes.badNumber.at(owner.file, clause.burst.span, "burst", burst));
    ok = false;
  }
  const amount = clause.amount?.value ?? 1;
  const windowS = windowSeconds(amount, clause.unit.name);
  if (windowS === null) {
    const span = clause.amount === null ? clause.unit.span : { start: clause.amount.span.start, end: clause.unit.span.end };
    const gap = clause.unit.name.length === 1 ? "" : " ";
    r.add(codes.badWindow.at(owner.file, span, clause.amount === null ? clause.unit.name : `${clause.amount.value}${gap}${clause.unit.name}`));
    ok = false;
  }
  const by = limitKey(clause, owner, r);
  if (!ok || by === null || windowS === null) return null;
  return { name, count, windowS, burst, by };
}

function limitKey(clause: LimitClause, owner: LimitOwner, r: Reporter): LimitKeyModel | null {
  const key = clause.key;
  if (key === null) return { kind: "address" };
  const name = key.name.name;
  if (key.member !== null) {
    if (name === "auth" && key.member.name === "id") {
      if (!owner.identity) {
        r.add(codes.callerWithoutIdentity.at(owner.file, key.span));
        return null;
      }
      return { kind: "caller" };
    }
    r.add(codes.badKeyMember.at(owner.file, key.span, `${name}.${key.member.name}`));
    return null;
  }
  if (name === "address") {
    if (owner.params?.includes("address")) {
      r.add(codes.ambiguousKey.at(owner.file, key.span, owner.describe));
      return null;
    }
    return { kind: "address" };
  }
  if (owner.params?.includes(name)) return { kind: "arg", name };
  if (name === "auth") {
    r.add(codes.badKeyMember.at(owner.file, key.span, "auth"));
    return null;
  }
  r.add(codes.unknownKey.at(owner.file, key.span, name, owner.describe, closest(name, [...(owner.params ?? []), "address"])));
  return null;
}

/**
 * A limit keyed by an argument, as a route-file block reads it: from the value the block
 * passes for that argument. Null (the reason in `why`) when the block passes something the
 * server cannot read before the block runs.
 */
export function blockKey(by: LimitKeyModel, args: readonly RouteArgModel[]): LimitKeyModel | { why: string } {
  if (by.kind !== "arg") return by;
  const given = args.find((a) => a.name === by.name);
  if (given === undefined) return { kind: "literal", value: "" };
  return keyOfValue(given.value);
}

function keyOfValue(v: RouteExprModel): LimitKeyModel | { why: string } {
  switch (v.kind) {
    case "input":
      return { kind: "input", from: v.from, name: v.name };
    case "literal":
      return { kind: "literal", value: v.value === null ? "" : String(v.value) };
    default:
      return { why: "the block computes rather than taking from the request" };
  }
}

/** Failed password checks of one account: 5 at once, then one every 30 s (docs/auth.md). */
export const DEFAULT_THROTTLE_ACCOUNT: RateModel = { count: 2, windowS: 60, burst: 5 };
/** Failed password checks from one client address: 20 at once, then one every 30 s. */
export const DEFAULT_THROTTLE_ADDRESS: RateModel = { count: 2, windowS: 60, burst: 20 };

/** `[auth.throttle]` with its defaults; null when it is off or no action checks a password. */
export function throttleModel(
  config: { enabled?: boolean; account?: RateModel; address?: RateModel } | undefined,
  verifies: boolean,
): ThrottleModel | null {
  if (!verifies || config?.enabled === false) return null;
  return { account: config?.account ?? DEFAULT_THROTTLE_ACCOUNT, address: config?.address ?? DEFAULT_THROTTLE_ADDRESS };
}

/** The table runtime/limits/sql.ts creates: a resource may not take its name. */
export const LIMITS_TABLE = "svc_rate_limits";

/** Model.limits: present when anything is limited or a password is checked (the throttle's counters). */
export function limitsModel(
  config: Parameters<typeof throttleModel>[0],
  actions: readonly { limits?: LimitModel[]; verifiesPassword?: true }[],
  routes: readonly { limits?: LimitModel[] }[],
  app: { routeFiles: readonly { blocks: readonly { limits?: LimitModel[] }[] }[] } | null,
): { throttle: ThrottleModel | null } | null {
  const throttle = throttleModel(config, actions.some((a) => a.verifiesPassword === true));
  const limited =
    actions.some((a) => a.limits !== undefined) ||
    routes.some((r) => r.limits !== undefined) ||
    (app?.routeFiles.some((f) => f.blocks.some((b) => b.limits !== undefined)) ?? false);
  return throttle === null && !limited ? null : { throttle };
}
