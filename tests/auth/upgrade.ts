// A weak stored hash upgraded by the next successful sign-in (runtime/auth/password-work.ts),
// through the accounts example on any backend: `admin` reads and writes the table directly.

import { randomBytes, scryptSync } from "node:crypto";
import { expect } from "../support/jest.js";
import { post } from "./support.js";
import type { TestServer } from "../support/server.js";

/** A PHC string of scrypt at N = 2^15, what servers before OWASP's minimum stored. */
export function weakHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");
  return `$scrypt$ln=15,r=8,p=1$${b64(salt)}$${b64(hash)}`;
}

export interface StoredHashes {
  read(email: string): Promise<string>;
  write(email: string, hash: string): Promise<void>;
}

/** Sign-up, a weak hash put in its place, a failed then a successful sign-in. */
export async function weakHashIsUpgraded(server: TestServer, stored: StoredHashes, email: string): Promise<void> {
  expect((await post(server, "/api/users", { email, name: "Old", password: "an old password" })).status).toBe(200);
  const weak = weakHash("an old password");
  await stored.write(email, weak);

  expect((await post(server, "/api/users/login", { email, password: "a wrong guess" })).status).toBe(401);
  expect(await stored.read(email)).toBe(weak);

  expect((await post(server, "/api/users/login", { email, password: "an old password" })).status).toBe(200);
  const upgraded = await stored.read(email);
  expect(upgraded).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
  expect(upgraded).not.toContain("an old password");

  // The new hash is the one that verifies now, and it is not upgraded again.
  expect((await post(server, "/api/users/login", { email, password: "an old password" })).status).toBe(200);
  expect(await stored.read(email)).toBe(upgraded);
  expect((await post(server, "/api/users/login", { email, password: "a wrong guess" })).status).toBe(401);
}
