import { afterEach, beforeEach, describe, expect, test } from "../../support/jest.js";
import BetterSqlite3 from "better-sqlite3";
import { mapSqliteError } from "../../../runtime/db/sqlite/errors.js";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import { HttpError } from "../../../runtime/core/errors.js";
import type { Awaitable, StatementSpec, TableColumnDdl, TableSpec } from "../../../runtime/contract/index.js";
import { ALL_STATEMENTS, commentTable, insertComment, insertTask, taskArgs, taskTable } from "./task-schema.js";
import { sqliteStatement } from "../../support/sqlite-sql.js";

function stmt(name: string, text: string, _params = 0): StatementSpec {
  return sqliteStatement(name, text);
}

function column(name: string, sqlType: string, rest = ""): TableColumnDdl {
  return {
    name,
    definition: `${name} ${sqlType}${rest}`,
    sqlType,
    nullable: !/NOT NULL/.test(rest),
    hasDefault: false,
  };
}

// STRICT, to see SQLite's type check; two unique indexes, one over an expression.
const MEMBER_COLUMNS = [
  column("id", "TEXT", " NOT NULL PRIMARY KEY"),
  column("team_id", "TEXT", " NOT NULL"),
  column("user_id", "TEXT", " NOT NULL"),
  column("nick", "TEXT"),
  column("age", "INTEGER", " CONSTRAINT age_positive CHECK (age > 0)"),
];
const memberTable: TableSpec = {
  name: "member",
  ddl: {
    sqlite: {
      createTable: `CREATE TABLE IF NOT EXISTS member (${MEMBER_COLUMNS.map((c) => c.definition).join(", ")}) STRICT`,
      columns: MEMBER_COLUMNS,
      createIndexes: [
        "CREATE UNIQUE INDEX IF NOT EXISTS member_team_user ON member (team_id, user_id)",
        "CREATE UNIQUE INDEX IF NOT EXISTS member_nick_lower ON member (lower(nick))",
      ],
    },
  },
};
const insertMember = stmt(
  "member.insert",
  "INSERT INTO member (id, team_id, user_id, nick, age) VALUES (?1, ?2, ?3, ?4, ?5)",
  5,
);
const badJson = stmt("test.bad_json", "SELECT json_extract(?1, '$.a') AS a", 1);

let db: SqliteDatabase;

beforeEach(async () => {
  db = openSqlite(":memory:");
  await db.migrate([taskTable(), commentTable, memberTable]);
  db.prepare([...ALL_STATEMENTS, insertMember, badJson]);
  await db.one(insertTask, taskArgs("a", "Write spec"));
  await db.run(insertMember, ["m1", "t1", "u1", "Ana", 30]);
});

afterEach(async () => {
  await db.close();
});

async function failure(p: Awaitable<unknown>): Promise<{ status: number; message: string }> {
  const err = await Promise.resolve(p).then(
    () => {
      throw new Error("expected the statement to fail");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  const { status, message } = err as HttpError;
  return { status, message };
}

describe("constraint errors become HttpErrors naming the field", () => {
  test("UNIQUE on one column: 409", async () => {
    expect(await failure(db.one(insertTask, taskArgs("b", "Write spec")))).toEqual({
      status: 409,
      message: "task.title already exists",
    });
  });

  test("PRIMARY KEY: 409", async () => {
    expect(await failure(db.one(insertTask, taskArgs("a", "Other")))).toEqual({
      status: 409,
      message: "task.id already exists",
    });
  });

  test("UNIQUE over several columns: 409 naming them all", async () => {
    expect(await failure(db.run(insertMember, ["m2", "t1", "u1", null, null]))).toEqual({
      status: 409,
      message: "member (team_id, user_id) already exists",
    });
  });

  test("UNIQUE over an expression: 409 naming the index", async () => {
    expect(await failure(db.run(insertMember, ["m2", "t1", "u2", "ANA", null]))).toEqual({
      status: 409,
      message: "a row with the same values for index member_nick_lower already exists",
    });
  });

  test("NOT NULL: 400", async () => {
    expect(
      await failure(
        db.one(insertTask, ["b", null, null, "low", null, "open", null, false, "2026-01-01T00:00:00.000Z"]),
      ),
    ).toEqual({
      status: 400,
      message: "task.title is required",
    });
  });

  test("CHECK on a column: 400 naming the column and the rule", async () => {
    expect(
      await failure(
        db.one(insertTask, ["b", "B", null, "urgent", null, "open", null, false, "2026-01-01T00:00:00.000Z"]),
      ),
    ).toEqual({
      status: 400,
      message: "invalid value for priority: must satisfy priority IN ('low','medium','high','critical')",
    });
  });

  test("CHECK through functions: 400 naming the column inside them", async () => {
    expect(await failure(db.one(insertComment, ["c1", "a", "   "]))).toEqual({
      status: 400,
      message: "invalid value for body: must satisfy length(trim(body)) > 0",
    });
  });

  test("a named CHECK constraint: 400 naming the constraint", async () => {
    expect(await failure(db.run(insertMember, ["m2", "t2", "u2", null, -1]))).toEqual({
      status: 400,
      message: "check age_positive failed",
    });
  });

  test("FOREIGN KEY: 409", async () => {
    const { status, message } = await failure(db.one(insertComment, ["c1", "nowhere", "hi"]));
    expect(status).toBe(409);
    expect(message).toMatch(/^foreign key constraint failed/);
  });

  test("a wrong type in a STRICT table: 400 naming the column", async () => {
    expect(await failure(db.run(insertMember, ["m2", "t2", "u2", null, "old"]))).toEqual({
      status: 400,
      message: "invalid value for member.age: cannot store TEXT value in INTEGER column member.age",
    });
  });

  test("the HttpError keeps the driver's error as its cause, for the log", async () => {
    const err = await Promise.resolve(db.one(insertTask, taskArgs("a", "x"))).catch((e: unknown) => e);
    expect((err as HttpError).cause).toMatchObject({ name: "SqliteError", code: "SQLITE_CONSTRAINT_PRIMARYKEY" });
  });
});

describe("other errors", () => {
  test("a database error that is not a constraint propagates unchanged", async () => {
    const err = await Promise.resolve(db.one(badJson, ["{not json"])).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "SqliteError", code: "SQLITE_ERROR" });
    expect(err).not.toBeInstanceOf(HttpError);
    expect((err as Error).message).toBe("malformed JSON");
  });

  test("mapSqliteError leaves non-driver errors alone", () => {
    const plain = new TypeError("x");
    expect(mapSqliteError(plain)).toBe(plain);
    const busy = new BetterSqlite3.SqliteError("database is locked", "SQLITE_BUSY");
    expect(mapSqliteError(busy)).toMatchObject({ status: 503, message: "database busy" });
    const unknownConstraint = new BetterSqlite3.SqliteError("raised", "SQLITE_CONSTRAINT_TRIGGER");
    expect(mapSqliteError(unknownConstraint)).toBe(unknownConstraint);
  });
  test("errors of another copy of the SqliteError class are recognised (one per jest registry)", () => {
    class SqliteError extends Error {
      constructor(
        message: string,
        readonly code: string,
      ) {
        super(message);
      }
    }
    Object.defineProperty(SqliteError.prototype, "name", { value: "SqliteError" });
    const foreign = new SqliteError("UNIQUE constraint failed: task.title", "SQLITE_CONSTRAINT_UNIQUE");
    expect(mapSqliteError(foreign)).toMatchObject({ status: 409, message: "task.title already exists" });
  });
});
