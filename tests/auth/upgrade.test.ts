// On SQLite: a weak stored hash is rewritten at OWASP's minimum by the next successful
// sign-in, and left alone by a failed one (the same check on PostgreSQL and MariaDB is in
// tests/backends/identity.test.ts).

import { afterAll, beforeAll, describe, test } from "../support/jest.js";
import { join } from "node:path";
import Database from "better-sqlite3";
import { startAccounts, type Accounts } from "./support.js";
import { weakHashIsUpgraded } from "./upgrade.js";

describe("upgrading stored hashes on SQLite", () => {
  let accounts: Accounts;
  let db: Database.Database;

  beforeAll(async () => {
    accounts = await startAccounts();
    db = new Database(join(accounts.dir, "accounts.db"));
  });

  afterAll(async () => {
    db?.close();
    await accounts?.stop();
  });

  test("a weak hash is upgraded after a successful sign-in, not after a failed one", async () => {
    await weakHashIsUpgraded(
      accounts.server,
      {
        read: async (email) => String((db.prepare("SELECT password FROM account WHERE email = ?").get(email) as { password: string }).password),
        write: async (email, hash) => void db.prepare("UPDATE account SET password = ? WHERE email = ?").run(hash, email),
      },
      "old@example.com",
    );
  });
});
