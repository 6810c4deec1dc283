// examples/accounts' sign-up tells no caller which e-mails have accounts (issue 30 part 6):
// a taken address answers what a new one does, in about the time a new one takes, and
// leaves the account as it was.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { type Accounts, post, startAccounts } from "./support.js";

let accounts: Accounts;

beforeAll(async () => {
  accounts = await startAccounts();
  expect((await post(accounts.server, "/api/users", { email: "taken@example.com", name: "Owner", password: "owner password" })).status).toBe(200);
});

afterAll(async () => {
  await accounts.stop();
});

async function timedSignUp(email: string, password: string): Promise<{ ms: number; status: number; text: string }> {
  const started = performance.now();
  const answer = await post(accounts.server, "/api/users", { email, name: "Prober", password });
  return { ms: performance.now() - started, status: answer.status, text: answer.text.replace(email, "<email>") };
}

describe("sign-up of an address that has an account", () => {
  test("answers exactly what a new address gets", async () => {
    const fresh = await timedSignUp("new-1@example.com", "prober password");
    const taken = await timedSignUp("taken@example.com", "prober password");
    expect(taken.status).toBe(fresh.status);
    expect(taken.text).toBe(fresh.text);
    // Case and spaces are the same address.
    expect((await timedSignUp(" Taken@Example.com", "prober password")).text.toLowerCase()).toContain("taken@example.com");
  });

  test("takes about as long: the password is hashed either way", async () => {
    const fresh: number[] = [];
    const taken: number[] = [];
    for (let i = 0; i < 3; i++) {
      fresh.push((await timedSignUp(`timing-${i}@example.com`, "prober password")).ms);
      taken.push((await timedSignUp("taken@example.com", "prober password")).ms);
    }
    // Without the hash a taken address answers in ~2 ms against ~100 ms: far below this.
    expect(Math.min(...taken)).toBeGreaterThan(0.4 * Math.min(...fresh));
  });

  test("changes nothing: the owner's password still signs in, the prober's does not", async () => {
    expect((await post(accounts.server, "/api/users/login", { email: "taken@example.com", password: "owner password" })).status).toBe(200);
    expect((await post(accounts.server, "/api/users/login", { email: "taken@example.com", password: "prober password" })).status).toBe(401);
  });
});
