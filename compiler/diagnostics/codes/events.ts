import { defineDiagnostic as d } from "../diagnostic.js";

/** Events and their subscribers (docs/language.md §2.9): SVC8050–SVC8079. */
export const eventCodes = {
  duplicateEvent: d(
    "SVC8050",
    "error",
    "Two `event` declarations take one name. Event names are global: subscribers in svc.toml and the `type` of a delivery name them without a module.",
    (name: string, other: string) => `event \`${name}\` is already declared at ${other}`,
    () => "rename one of them",
  ),
  unknownEvent: d(
    "SVC8051",
    "error",
    "`emit` names an event no module declares.",
    (name: string, _near: string | null) => `no event \`${name}\` is declared`,
    (name: string, near: string | null) => (near ? `did you mean \`${near}\`?` : `declare it: event ${name} { … }`),
  ),
  emitNotHere: d(
    "SVC8052",
    "error",
    "`emit` stands where nothing commits it: in a fn (which has no transaction and writes nothing). Only an action emits.",
    (where: string) => `\`emit\` is not allowed in ${where}`,
    () => "emit from the action that calls it",
  ),
  unknownEventMember: d(
    "SVC8053",
    "error",
    "`emit` gives a member its event does not declare: it would be sent to subscribers who were never told of it.",
    (event: string, member: string, _near: string | null) => `event \`${event}\` has no member \`${member}\``,
    (event: string, _member: string, near: string | null) => (near ? `did you mean \`${near}\`?` : `add it to \`event ${event} { … }\`, or leave it out`),
  ),
  missingEventMember: d(
    "SVC8054",
    "error",
    "`emit` leaves out a member its event declares without `?` or a default.",
    (event: string, member: string) => `event \`${event}\` needs the member \`${member}\``,
    (_event: string, member: string) => `give it: ${member}: …, or declare it optional (\`${member}: T?\`)`,
  ),
  eventMemberGivenTwice: d(
    "SVC8055",
    "error",
    "`emit` gives one member twice.",
    (member: string) => `member \`${member}\` is given twice`,
    () => "keep one",
  ),
  reservedOutboxTable: d(
    "SVC8056",
    "error",
    "With events declared, the tables svc_outbox and svc_outbox_deliveries are the server's own.",
    (name: string) => `resource \`${name}\` takes the name of a table of the outbox`,
    () => "rename the resource",
  ),
  subscriberUnknownEvent: d(
    "SVC8060",
    "error",
    "A subscriber in svc.toml names an event no module declares: it would never receive anything under that name.",
    (subscriber: string, event: string, _near: string | null) => `subscriber \`${subscriber}\` names the event \`${event}\`, which no module declares`,
    (_subscriber: string, _event: string, near: string | null) => (near ? `did you mean \`${near}\`?` : 'name a declared event, or "*" for all of them'),
  ),
  subscribersWithoutEvents: d(
    "SVC8061",
    "warning",
    "svc.toml has event subscribers, but no module declares an event: nothing will ever be delivered.",
    () => "[events.subscribers] is set, but no module declares an event",
    () => "declare one (event name { … }) and emit it from an action, or remove the subscribers",
  ),
} as const;
