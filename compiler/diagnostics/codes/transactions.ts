import { defineDiagnostic as d } from "../diagnostic.js";

/** An action's `transaction` clause and a unique index's `fail` (docs/language.md §2.3, Transactions; §2.1): SVC2140–SVC2149. */
export const transactionCodes = {
  unknownTransaction: d(
    "SVC2140",
    "error",
    "A `transaction` clause names no mode svc knows, or an action has two.",
    (written: string, twice: boolean) =>
      twice ? `an action takes one \`transaction\` clause; this is a second (\`transaction ${written}\`)` : `\`transaction ${written}\` is not a transaction mode`,
    (_written: string, twice: boolean) =>
      twice
        ? "keep one clause"
        : "write `transaction serializable` (the default), `transaction repeatable read`, `transaction read committed` or `transaction none`",
  ),
  failAfterAutocommit: d(
    "SVC2141",
    "error",
    "In an action with `transaction none`, a `fail` can follow a write: each statement commits on its own, so the fail would not undo it.",
    (action: string, fail: string, write: string) =>
      `\`${action}\` runs without a transaction, and ${fail} can follow \`${write}\`, which has committed by then: the fail would not undo it`,
    () =>
      "check before the first write, or write `transaction none partial` to accept that writes before a fail stay; or keep the transaction",
  ),
  handlerWithoutTransaction: d(
    "SVC2142",
    "error",
    "A webhook's handler has `transaction none`: a delivery is recorded in the same transaction as the handler's writes, so that it runs exactly once.",
    (action: string, webhook: string) =>
      `\`${action}\` handles the webhook \`${webhook}\`, whose delivery id is recorded in one transaction with the handler's writes; it cannot run without one`,
    () => "remove `transaction none`, or choose an isolation (`transaction read committed`)",
  ),
  calleeTransaction: d(
    "SVC2143",
    "warning",
    "An action with a `transaction` clause is called by an action of another mode: a called action runs in its caller's transaction, so its own clause does not apply there.",
    (callee: string, mode: string, caller: string, callerMode: string) =>
      `\`${callee}\` says \`transaction ${mode}\`, but \`${caller}\` calls it, and there it runs as \`${caller}\` does (\`transaction ${callerMode}\`)`,
    () => "give the caller the same clause, or leave the callee's out if it is only ever called",
  ),
  needlessPartial: d(
    "SVC2144",
    "warning",
    "`partial` allows nothing here: no `fail` can follow a write of the action.",
    (action: string) => `\`transaction none partial\` on \`${action}\`, where no fail can follow a write`,
    () => "write `transaction none`",
  ),
  uniqueFailStatus: d(
    "SVC2145",
    "error",
    "A unique index's `fail` answers a status other than 400, 409 or 422.",
    (status: number) => `a unique index's \`fail\` cannot answer ${status}`,
    () => "a value that is taken is the client's: use 422 (a validation error), 409 (a conflict) or 400",
  ),
  uniqueFailOnIndex: d(
    "SVC2146",
    "error",
    "`fail` follows an `index`, which refuses nothing; only a `unique` index can be violated.",
    () => "`fail` is for a unique index: a plain `index` refuses no row",
    () => "write `unique (…) fail …`, or remove `fail …`",
  ),
};
