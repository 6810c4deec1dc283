// Events (docs/language.md §2.9): `event name { … }` declarations, global across modules, and
// `emit name { … }` in an action, whose members are checked as an action call's arguments are.

import { eventCodes } from "../../diagnostics/codes/events.js";
import { analyzeCodes as codes } from "../../diagnostics/codes/analyze.js";
import { closest } from "../../diagnostics/did-you-mean.js";
import type { Decl, EmitStmt, EventDecl } from "../../parse/ast.js";
import type { ExprAnalyzer } from "../expressions/expr.js";
import type { EventModel, EventsModel, IrExpr, IrStmt, Literal } from "../model/model.js";
import type { ProjectConfig } from "../../project/config/schema.js";
import { analyzeParams } from "./params.js";
import { type TypeTable, shapeType } from "./record-types.js";
import type { ModuleScope, Scope } from "../expressions/scope.js";
import { type Reporter, place } from "../shared/context.js";
import { assignable, describe, scalar } from "../shared/types.js";

/** Every module's events, by name: one name, one declaration. */
export function analyzeEvents(
  modules: readonly { name: string; decls: { decl: Decl; file: string }[] }[],
  types: ReadonlyMap<string, TypeTable>,
  r: Reporter,
): Map<string, EventModel> {
  const out = new Map<string, EventModel>();
  const where = new Map<string, string>();
  for (const m of modules) {
    for (const { decl, file } of m.decls) {
      if (decl.kind !== "Event") continue;
      const name = decl.name.name;
      const other = where.get(name);
      if (other !== undefined) {
        r.add(eventCodes.duplicateEvent.at(file, decl.name.span, name, other));
        continue;
      }
      where.set(name, place(file, decl.name.span));
      out.set(name, eventModel(m.name, decl, file, types.get(m.name) ?? new Map(), r));
    }
  }
  return out;
}

function eventModel(module: string, decl: EventDecl, file: string, table: TypeTable, r: Reporter): EventModel {
  return { name: decl.name.name, module, doc: decl.doc, members: analyzeParams(decl.members, file, r, { module, table }) };
}

/**
 * `emit name { … }`: every member the event declares without `?` or a default given once,
 * each value of its member's type; one read from json is checked when the action runs.
 */
export function lowerEmit(s: EmitStmt, x: ExprAnalyzer, m: ModuleScope, scope: Scope): IrStmt[] {
  if (m.pure !== undefined) {
    m.reporter.add(eventCodes.emitNotHere.at(m.file, s.span, `fn \`${m.pure}\``));
    return [];
  }
  const name = s.event.name;
  const event = m.events.get(name);
  if (event === undefined) {
    m.reporter.add(eventCodes.unknownEvent.at(m.file, s.event.span, name, closest(name, [...m.events.keys()])));
    return [];
  }
  const given = new Map<string, IrExpr>();
  for (const entry of s.data.entries) {
    const key = entry.key.name;
    const value = x.expr(entry.value, scope);
    const member = event.members.find((p) => p.name === key);
    if (member === undefined) {
      m.reporter.add(eventCodes.unknownEventMember.at(m.file, entry.key.span, name, key, closest(key, event.members.map((p) => p.name))));
      continue;
    }
    if (given.has(key)) {
      m.reporter.add(eventCodes.eventMemberGivenTwice.at(m.file, entry.key.span, key));
      continue;
    }
    const what = `member \`${key}\` of event \`${name}\``;
    if (member.shape !== undefined) {
      const expected = shapeType(member.shape, m.types);
      if (value.type.kind === "unknown" && value.type.from !== undefined) {
        m.reporter.add(codes.typeMismatch.at(m.file, entry.value.span, what, describe(expected), "a value read from json"));
      } else x.expect(value, expected, what, entry.value.span);
      given.set(key, value);
      continue;
    }
    x.expect(value, scalar(member.type, member.nullable, member.enumValues), what, entry.value.span);
    if (!member.nullable && value.type.kind === "scalar" && value.type.nullable && assignable(value.type, scalar(member.type, true, member.enumValues))) {
      m.reporter.add(codes.typeMismatch.at(m.file, entry.value.span, what, `${describe(scalar(member.type, false, member.enumValues))} (not null)`, describe(value.type)));
    }
    given.set(key, x.checked(value, member.type, member.nullable));
  }
  const entries: { key: string; value: IrExpr }[] = [];
  for (const member of event.members) {
    const value = given.get(member.name);
    if (value !== undefined) entries.push({ key: member.name, value });
    else if (member.required) m.reporter.add(eventCodes.missingEventMember.at(m.file, s.span, name, member.name));
    else entries.push({ key: member.name, value: literal(member.default ?? null, member.type) });
  }
  // The event's row is written with the call's context, which tells the server to deliver after commit.
  x.usesContext = true;
  return [{ kind: "emit", event: name, data: { kind: "object", entries, type: { kind: "unknown" } } }];
}

function literal(value: unknown, type: EventModel["members"][number]["type"]): IrExpr {
  // A list member's default is a JSON list; the emitter writes any literal as JSON.
  return { kind: "literal", value: value as Literal, type: scalar(type, value === null) };
}

/** Retries and polling when svc.toml leaves them out (docs/language.md §2.9). */
export const EVENT_DEFAULTS = { firstRetryMs: 1000, maxRetryMs: 3_600_000, maxAttempts: 15, timeoutMs: 10_000, pollMs: 5000 } as const;

/**
 * The events part of the model: declared events, svc.toml's subscribers (each `events`
 * name checked against the declarations) and the retry settings; null when no module
 * declares an event.
 */
export function eventsModel(config: ProjectConfig, events: ReadonlyMap<string, EventModel>, r: Reporter): EventsModel | null {
  const subscribers = Object.entries(config.events.subscribers ?? {});
  if (events.size === 0) {
    if (subscribers.length > 0) r.add(eventCodes.subscribersWithoutEvents.at(config.events.file ?? "svc.toml", config.events.at ?? null));
    return null;
  }
  const names = [...events.keys()];
  const out: EventsModel = {
    declared: [...events.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    subscribers: [],
    firstRetryMs: config.events.first_retry_ms ?? EVENT_DEFAULTS.firstRetryMs,
    maxRetryMs: config.events.max_retry_ms ?? EVENT_DEFAULTS.maxRetryMs,
    maxAttempts: config.events.max_attempts ?? EVENT_DEFAULTS.maxAttempts,
    timeoutMs: config.events.timeout_ms ?? EVENT_DEFAULTS.timeoutMs,
    pollMs: config.events.poll_ms ?? EVENT_DEFAULTS.pollMs,
  };
  for (const [name, s] of subscribers) {
    s.events.forEach((event, i) => {
      if (event !== "*" && !events.has(event)) {
        r.add(eventCodes.subscriberUnknownEvent.at(config.events.file ?? "svc.toml", s.eventSpans[i] ?? null, name, event, closest(event, names)));
      }
    });
    out.subscribers.push({ name, url: s.url, secret: s.secret, events: s.events });
  }
  out.subscribers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}
