// SVC_PASSWORD_COST on a running server (docs/auth.md, "Password cost in tests"), through
// examples/accounts on SQLite: a bad value stops the server before it opens its database;
// a low one is warned about at start and written into each hash; a server started later
// without it rewrites such a hash at N = 2^17 on its owner's next sign-in.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { repoRoot } from "../support/paths.js";
import { CHEAP_PASSWORDS, buildTo, removeDir, startServer } from "../support/server.js";
import { SECRET, post } from "./support.js";

describe("SVC_PASSWORD_COST on a server", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await buildTo({ mode: "project", dir: join(repoRoot, "examples", "accounts") });
  });

  afterAll(() => {
    if (dir) removeDir(dir);
  });

  test("a bad value: exit 1 with one line naming the variable, and no database opened", async () => {
    const db = join(dir, "refused.db");
    let failure = "";
    try {
      const server = await startServer(dir, ["--db", db], { JWT_SECRET: SECRET, SVC_PASSWORD_COST: "fast" });
      await server.stop();
    } catch (err) {
      failure = String(err);
    }
    expect(failure).toContain("server exited with 1 before listening");
    expect(failure).toContain(
      `accounts: SVC_PASSWORD_COST: "fast" is not a password cost (log2 of scrypt's N, a whole number from 10 to 20; unset means 17)`,
    );
    expect(existsSync(db)).toBe(false);
  });

  test("a low cost: a warning at start, ln=10 hashes; without it the next sign-in writes ln=17", async () => {
    const path = join(dir, "accounts.db");
    const stored = (): string => {
      const db = new Database(path, { readonly: true });
      try {
        return String((db.prepare("SELECT password FROM account WHERE email = ?").get("ada@example.com") as { password: string }).password);
      } finally {
        db.close();
      }
    };
    const cheap = await startServer(dir, ["--db", path], { JWT_SECRET: SECRET, ...CHEAP_PASSWORDS });
    try {
      const warning = cheap.output.map((l) => (l.startsWith("{") ? JSON.parse(l) : {})).find((l) => l.level === "warn");
      expect(warning).toMatchObject({ password_cost: 10, minimum: 17 });
      expect(warning.msg).toContain("SVC_PASSWORD_COST makes password hashes weaker than OWASP's minimum");
      expect((await post(cheap, "/api/users", { email: "ada@example.com", name: "Ada", password: "correct horse" })).status).toBe(200);
      expect((await post(cheap, "/api/users/login", { email: "ada@example.com", password: "correct horse" })).status).toBe(200);
      expect((await post(cheap, "/api/users/login", { email: "ada@example.com", password: "wrong" })).status).toBe(401);
    } finally {
      await cheap.stop();
    }
    expect(stored()).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);

    const full = await startServer(dir, ["--db", path], { JWT_SECRET: SECRET });
    try {
      expect(full.output.some((l) => l.includes('"level":"warn"'))).toBe(false);
      expect((await post(full, "/api/users/login", { email: "ada@example.com", password: "correct horse" })).status).toBe(200);
      expect(stored()).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    } finally {
      await full.stop();
    }
  });
});
