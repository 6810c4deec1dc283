// identifiers.ts: how a name written without quotes is spelled for PostgreSQL and MySQL, so it
// means there what SQLite took it for. tests/backends/names.test.ts runs the same kinds of
// names on the three servers.

import { describe, expect, test } from "../../support/jest.js";
import { bindParams } from "../../../compiler/analyze/sql/params.js";
import { sqlBody } from "./fixtures.js";

const tables = [
  { name: "user", fields: [{ name: "id" }, { name: "name" }, { name: "rank", nullable: false }, { name: "randomNumber" }, { name: "created_at" }] },
  { name: "task", fields: [{ name: "id" }, { name: "title" }, { name: "status" }] },
];
const dialects = (sql: string) => bindParams(sqlBody(sql), undefined, undefined, [], tables).dialects;

describe("names of the project, quoted where a backend would read them otherwise", () => {
  test("a table named like a PostgreSQL keyword (user) is quoted there; MySQL reads it as a name", () => {
    const d = dialects("SELECT id FROM user WHERE name = @name");
    expect(d.sqlite.text).toBe("SELECT id FROM user WHERE name = ?");
    expect(d.postgres.text).toBe('SELECT id FROM "user" WHERE name = $1');
    expect(d.mysql.text).toBe("SELECT id FROM user WHERE name = ?");
  });

  test("a column named like a MySQL keyword (rank) is quoted there", () => {
    const d = dialects("SELECT rank FROM user ORDER BY rank");
    expect(d.postgres.text).toBe('SELECT rank FROM "user" ORDER BY rank');
    expect(d.mysql.text).toBe('SELECT "rank" FROM user ORDER BY "rank"');
  });

  test("camelCase columns and aliases keep their case on PostgreSQL, references to an alias too", () => {
    const d = dialects("SELECT randomNumber, created_at AS createdAt FROM user ORDER BY createdAt");
    // An alias's nullability is not known: PostgreSQL is told where NULL sorts (null-order.ts).
    expect(d.postgres.text).toBe('SELECT "randomNumber", created_at AS "createdAt" FROM "user" ORDER BY "createdAt" NULLS FIRST');
    // MySQL keeps an alias as written and finds columns whatever their case.
    expect(d.mysql.text).toBe("SELECT randomNumber, created_at AS createdAt FROM user ORDER BY createdAt");
  });

  test("a name written in another case than declared is spelled as declared, so it answers under that key", () => {
    const d = dialects("SELECT RANDOMNUMBER, u.Title FROM user, task AS u WHERE u.STATUS = 'open'");
    expect(d.postgres.text).toBe('SELECT "randomNumber", u."title" FROM "user", task AS u WHERE u."status" = \'open\'');
    expect(d.mysql.text).toBe('SELECT "randomNumber", u."title" FROM user, task AS u WHERE u."status" = \'open\'');
  });

  test("an alias in another case than where it is given is spelled as given", () => {
    const d = dialects("SELECT count(*) AS openCount FROM task ORDER BY OPENCOUNT");
    expect(d.postgres.text).toBe('SELECT count(*) AS "openCount" FROM task ORDER BY "openCount" NULLS FIRST');
    expect(d.mysql.text).toBe('SELECT count(*) AS openCount FROM task ORDER BY "openCount"');
  });

  test("keywords, functions, types in CAST and names of other tables are left as written", () => {
    const sql = "SELECT CAST(rank AS INTEGER) AS n, date(created_at) AS Day, coalesce(name, 'x') FROM user LEFT JOIN other ON other.randomNumber = 1 ORDER BY n DESC NULLS LAST";
    const d = dialects(sql);
    expect(d.postgres.text).toBe(
      'SELECT CAST(rank AS INTEGER) AS n, date(created_at) AS "Day", coalesce(name, \'x\') FROM "user" LEFT JOIN other ON other."randomNumber" = 1 ORDER BY n DESC NULLS LAST',
    );
    expect(d.sqlite.text).toBe(sql);
  });

  test("INSERT INTO a keyword-named table with a column list", () => {
    const d = dialects("INSERT INTO user (id, name, rank) VALUES (@id, @name, 1)");
    expect(d.postgres.text).toBe('INSERT INTO "user" (id, name, rank) VALUES ($1, $2, 1)');
    expect(d.mysql.text).toBe('INSERT INTO user (id, name, "rank") VALUES (?, ?, 1)');
  });

  test("quoted names are the writer's own and stay as written", () => {
    const d = dialects('SELECT "randomNumber" AS "Lucky" FROM "user"');
    expect(d.postgres.text).toBe('SELECT "randomNumber" AS "Lucky" FROM "user"');
  });
});
