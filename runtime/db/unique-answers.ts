// What a violated unique index answers when its resource says so (docs/language.md §2.1):
// `unique (username) fail 422 "username has already been taken"` makes the race the app's
// own check cannot see (two sign-ups of one name, both past the check) answer as that check
// does, on every backend; without it svc's 409 `user.username already exists` stands.

import { HttpError } from "../core/errors.js";
import type { TableSpec } from "../contract/index.js";

export class UniqueAnswers {
  private constructor(private readonly byKey: ReadonlyMap<string, { status: number; message: string }>) {}

  static of(tables: readonly TableSpec[]): UniqueAnswers {
    const byKey = new Map<string, { status: number; message: string }>();
    for (const t of tables) {
      for (const u of t.uniqueAnswers ?? []) byKey.set(key(t.name, u.columns), { status: u.status, message: u.message });
    }
    return new UniqueAnswers(byKey);
  }

  static none(): UniqueAnswers {
    return new UniqueAnswers(new Map());
  }

  /** The declared answer for a violation of `table`'s unique index on `columns`, or null. */
  answer(table: string | null, columns: readonly string[], cause: unknown): HttpError | null {
    if (table === null || this.byKey.size === 0) return null;
    const a = this.byKey.get(key(table, columns));
    return a === undefined ? null : new HttpError(a.status, a.message, { code: "SVC_ERR_CONSTRAINT", cause });
  }
}

/** Names compare as the databases compare them: without regard to case. */
function key(table: string, columns: readonly string[]): string {
  return `${table.toLowerCase()}\u0000${columns.map((c) => c.toLowerCase()).join(",")}`;
}
