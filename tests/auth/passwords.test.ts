// Passwords (runtime/auth/password.ts): scrypt PHC strings with a fresh salt each time, a
// verify that reads the stored parameters, and the same cost and answer for an unknown user.

import { describe, expect, test } from "../support/jest.js";
import { HASH_CONCURRENCY, checkPassword, hashPassword, hashPasswordOrNull, useScryptForTests, verifyPassword } from "../../runtime/auth/password.js";

describe("hashing", () => {
  test("a PHC string of scrypt with its parameters, salt and hash", async () => {
    const stored = await hashPassword("correct horse");
    expect(stored).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(stored).not.toContain("correct horse");
  });

  test("the same password hashes differently every time (a new salt)", async () => {
    const [a, b] = [await hashPassword("same"), await hashPassword("same")];
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, "same")).toBe(true);
    expect(await verifyPassword(b, "same")).toBe(true);
  });

  test("null stays null for a nullable field", async () => {
    expect(await hashPasswordOrNull(null)).toBeNull();
    expect(await verifyPassword(await hashPasswordOrNull("x"), "x")).toBe(true);
  });
});

describe("verifying", () => {
  test("right and wrong passwords; Unicode compared after NFC normalization", async () => {
    const stored = await hashPassword("Ångström");
    expect(await verifyPassword(stored, "Ångström")).toBe(true);
    expect(await verifyPassword(stored, "A\u030angstro\u0308m")).toBe(true);
    expect(await verifyPassword(stored, "angstrom")).toBe(false);
    expect(await verifyPassword(stored, "")).toBe(false);
    expect(await verifyPassword(stored, null)).toBe(false);
  });

  test("no stored hash (an unknown user), or an unreadable one: false, never an error", async () => {
    for (const stored of [null, undefined, "", "plain text", "$scrypt$ln=99,r=8,p=1$AAAA$AAAA", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"]) {
      expect(await verifyPassword(stored, "anything")).toBe(false);
    }
  });

  test("a hash made with other parameters still verifies: they are read from the string", async () => {
    const { scryptSync, randomBytes } = await import("node:crypto");
    const salt = randomBytes(16);
    const hash = scryptSync("older", salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const stored = `$scrypt$ln=14,r=8,p=1$${salt.toString("base64").replace(/=+$/, "")}$${hash.toString("base64").replace(/=+$/, "")}`;
    expect(await verifyPassword(stored, "older")).toBe(true);
    expect(await verifyPassword(stored, "newer")).toBe(false);
  });
});

describe("cost", () => {
  test("OWASP's minimum for scrypt: N = 2^17, r = 8, p = 1; anything below is weak once it matched", async () => {
    const { scryptSync, randomBytes } = await import("node:crypto");
    const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");
    const made = (logN: number, r: number) => {
      const salt = randomBytes(16);
      return `$scrypt$ln=${logN},r=${r},p=1$${b64(salt)}$${b64(scryptSync("pw", salt, 32, { N: 2 ** logN, r, p: 1, maxmem: 512 * 2 ** logN * r }))}`;
    };
    expect(await checkPassword(made(15, 8), "pw")).toEqual({ ok: true, weak: true });
    expect(await checkPassword(made(16, 8), "pw")).toEqual({ ok: true, weak: true });
    expect(await checkPassword(made(15, 8), "other")).toEqual({ ok: false, weak: false });
    expect(await checkPassword(await hashPassword("pw"), "pw")).toEqual({ ok: true, weak: false });
  });

  test(`at most ${HASH_CONCURRENCY} hash(es) at once per process; the rest wait their turn`, async () => {
    let running = 0;
    let most = 0;
    useScryptForTests((real) => async (...args) => {
      most = Math.max(most, ++running);
      try {
        return await real(...args);
      } finally {
        running--;
      }
    });
    try {
      const stored = await Promise.all([1, 2, 3, 4].map((i) => hashPassword(`pw${i}`)));
      expect(most).toBe(HASH_CONCURRENCY);
      useScryptForTests(null);
      expect(await verifyPassword(stored[3], "pw4")).toBe(true);
    } finally {
      useScryptForTests(null);
    }
  });
});
