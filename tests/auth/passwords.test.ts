// Passwords (runtime/auth/password.ts): scrypt PHC strings with a fresh salt each time, a
// verify that reads the stored parameters, and the same cost and answer for an unknown user.

import { describe, expect, test } from "@jest/globals";
import { hashPassword, hashPasswordOrNull, verifyPassword } from "../../runtime/auth/password.js";

describe("hashing", () => {
  test("a PHC string of scrypt with its parameters, salt and hash", async () => {
    const stored = await hashPassword("correct horse");
    expect(stored).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
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
