// Password work outside the transaction (runtime/auth/password-work.ts), attacked on an
// in-process SQLite database: while a hash runs, another request's read and write are
// answered (they would wait for the transaction if the hash ran inside it); the action that
// committed saw the stored hash it verified; a weak stored hash is rewritten after a match,
// never after a failure. Ordering only: a hash is made to wait for what the test watches.

import { afterEach, beforeEach, describe, expect, test } from "../support/jest.js";
import { randomBytes, scryptSync } from "node:crypto";
import { openSqlite, type SqliteDatabase } from "../../runtime/db/sqlite/index.js";
import { hashPassword, passwordTransaction, verifyPassword } from "../../runtime/auth/password-work.js";
import { useScryptForTests } from "../../runtime/auth/password.js";
import { boundTo } from "../../runtime/idempotency/bound.js";
import type { CallContext, Executor, StatementSpec, TableSpec } from "../../runtime/contract/index.js";

const accountTable: TableSpec = {
  name: "account",
  ddl: {
    sqlite: {
      createTable: "CREATE TABLE IF NOT EXISTS account (id TEXT NOT NULL PRIMARY KEY, password TEXT)",
      columns: [
        { name: "id", definition: "id TEXT NOT NULL PRIMARY KEY", sqlType: "TEXT", nullable: false, hasDefault: false },
        { name: "password", definition: "password TEXT", sqlType: "TEXT", nullable: true, hasDefault: false },
      ],
      createIndexes: [],
    },
  },
};
const spec = (name: string, text: string, slots: number[]): StatementSpec => ({ name, sql: { sqlite: { text, slots } } });
const getAccount = spec("account.get", "SELECT id, password FROM account WHERE id = ?", [0]);
const insertAccount = spec("account.insert", "INSERT INTO account (id, password) VALUES (?, ?)", [0, 1]);
const setPassword = spec("account.set", "UPDATE account SET password = ? WHERE id = ?", [0, 1]);
const rehashAccount = spec("account.rehash.password", "UPDATE account SET password = ? WHERE id = ? AND password = ?", [0, 1, 2]);
const countAccounts = spec("account.count", "SELECT count(*) AS n FROM account", []);

/** A PHC string of scrypt at 2^logN, as an older server (or the test) made it. */
function phc(password: string, logN: number): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 2 ** logN, r: 8, p: 1, maxmem: 256 * 2 ** logN * 8 });
  const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");
  return `$scrypt$ln=${logN},r=8,p=1$${b64(salt)}$${b64(hash)}`;
}

let db: SqliteDatabase;

beforeEach(async () => {
  db = openSqlite(":memory:");
  await db.migrate([accountTable]);
  db.prepare([getAccount, insertAccount, setPassword, rehashAccount, countAccounts]);
});

afterEach(async () => {
  useScryptForTests(null);
  await db.close();
});

/** sign_in as the generated code runs it: read the row, verify, upgrade a weak hash. */
function signIn(tx: Executor, id: string, given: string): Promise<boolean> {
  return (async () => {
    const user = (await tx.one(getAccount, [id])) as { id: string; password: string | null } | null;
    return verifyPassword(user?.password ?? null, given, tx, (before, next) => tx.run(rehashAccount, [next, user!.id, before]));
  })();
}

/**
 * While each hash runs, `during` starts too; the order of what finished is recorded. Were
 * the hash inside the transaction, `during` would wait for its end, after the hash.
 */
function watchHashes(during: () => Promise<unknown>, order: string[]): Promise<unknown>[] {
  const others: Promise<unknown>[] = [];
  useScryptForTests((real) => async (password, salt, length, options) => {
    others.push(during().then(() => order.push("other request")));
    const key = await real(password, salt, length, options);
    order.push("hash");
    return key;
  });
  return others;
}

describe("a hash never holds the transaction", () => {
  test("a sign-in's verify: another request's read and write are answered before the hash ends", async () => {
    await db.run(insertAccount, ["a", phc("right", 10)]);
    const order: string[] = [];
    let n = 0;
    const others = watchHashes(async () => {
      await db.run(insertAccount, [`other-${++n}`, null]);
      await db.one(countAccounts, []);
    }, order);
    expect(await passwordTransaction(db, (tx) => signIn(tx, "a", "right"))).toBe(true);
    await Promise.all(others);
    // Two hashes: the verify, and the upgrade of the weak stored hash.
    expect(order).toEqual(["other request", "hash", "other request", "hash"]);
    expect(await db.one(countAccounts, [])).toEqual({ n: 3 });
  });

  test("a sign-up's hash: made before the attempt that writes it, with nothing held", async () => {
    const order: string[] = [];
    const others = watchHashes(() => Promise.resolve(db.one(countAccounts, [])), order);
    let attempts = 0;
    const stored = await passwordTransaction(db, async (tx) => {
      attempts++;
      const hash = await hashPassword("new password", tx);
      await tx.run(insertAccount, ["b", hash]);
      return hash;
    });
    await Promise.all(others);
    expect(order).toEqual(["other request", "hash"]);
    // The first attempt stopped at the hash; the second wrote the hash the first one asked for.
    expect(attempts).toBe(2);
    expect(await db.one(getAccount, ["b"])).toEqual({ id: "b", password: stored });
    useScryptForTests(null);
    expect(await verifyPassword(stored, "new password")).toBe(true);
  });

  test("outside a password transaction (one statement, no transaction) the hash runs in place", async () => {
    const stored = await hashPassword("x", db);
    expect(stored).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    expect(await verifyPassword(stored, "x", db)).toBe(true);
    expect(await verifyPassword(stored, "y", db)).toBe(false);
  });
});

describe("inside a transaction already open (a call with an Idempotency-Key)", () => {
  test("the hash runs in place: the action runs once, its writes are not made twice", async () => {
    let attempts = 0;
    await db.transaction(async (outer) => {
      await passwordTransaction(boundTo(db, outer), async (tx) => {
        attempts++;
        // A second run would insert "first" again into the same, never rolled back, transaction.
        await tx.run(insertAccount, ["first", null]);
        await tx.run(insertAccount, ["second", await hashPassword("pw", tx)]);
      });
    });
    expect(attempts).toBe(1);
    expect(await db.one(countAccounts, [])).toEqual({ n: 2 });
  });
});

describe("the transaction that commits saw what was verified", () => {
  test("a password changed while the old one was being checked: checked again, against the new hash", async () => {
    await db.run(insertAccount, ["a", phc("old", 10)]);
    const newHash = phc("new", 10);
    let changed = false;
    useScryptForTests((real) => async (...args) => {
      // The account's owner changes the password while the attacker's guess of the old one is hashed.
      if (!changed) {
        changed = true;
        await db.run(setPassword, [newHash, "a"]);
      }
      return real(...args);
    });
    expect(await passwordTransaction(db, (tx) => signIn(tx, "a", "old"))).toBe(false);
    expect(await db.one(getAccount, ["a"])).toEqual({ id: "a", password: newHash });
  });

  test("a rolled-back attempt's cookies do not reach the answer", async () => {
    await db.run(insertAccount, ["a", phc("right", 17)]);
    const ctx = { cookies: ["earlier=1"] } as unknown as CallContext;
    await passwordTransaction(
      db,
      async (tx) => {
        ctx.cookies!.push("svc_session=attempt");
        return signIn(tx, "a", "right");
      },
      ctx,
    );
    expect(ctx.cookies).toEqual(["earlier=1", "svc_session=attempt"]);
  });
});

describe("upgrading a weak stored hash", () => {
  test("after a match: rewritten with the current parameters, and it still verifies", async () => {
    const weak = phc("right", 15);
    await db.run(insertAccount, ["a", weak]);
    expect(await passwordTransaction(db, (tx) => signIn(tx, "a", "right"))).toBe(true);
    const row = (await db.one(getAccount, ["a"])) as { password: string };
    expect(row.password).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    expect(await verifyPassword(row.password, "right")).toBe(true);
  });

  test("after a failure: untouched", async () => {
    const weak = phc("right", 15);
    await db.run(insertAccount, ["a", weak]);
    expect(await passwordTransaction(db, (tx) => signIn(tx, "a", "wrong"))).toBe(false);
    expect(await db.one(getAccount, ["a"])).toEqual({ id: "a", password: weak });
  });

  test("a hash at the current parameters is left as it is", async () => {
    const current = phc("right", 17);
    await db.run(insertAccount, ["a", current]);
    expect(await passwordTransaction(db, (tx) => signIn(tx, "a", "right"))).toBe(true);
    expect(await db.one(getAccount, ["a"])).toEqual({ id: "a", password: current });
  });

  test("a password set meanwhile is not overwritten by the upgrade of the old one", async () => {
    await db.run(insertAccount, ["a", phc("right", 15)]);
    const other = phc("changed", 17);
    let hashes = 0;
    useScryptForTests((real) => async (...args) => {
      // The second hash is the upgrade's: the owner sets a new password before it is written.
      if (++hashes === 2) await db.run(setPassword, [other, "a"]);
      return real(...args);
    });
    // Outside a password transaction the upgrade runs right after the match, with nothing held.
    const user = (await db.one(getAccount, ["a"])) as { id: string; password: string };
    expect(await verifyPassword(user.password, "right", db, (before, next) => db.run(rehashAccount, [next, user.id, before]))).toBe(true);
    expect(await db.one(getAccount, ["a"])).toEqual({ id: "a", password: other });
  });
});
