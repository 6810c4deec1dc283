// SVC_PASSWORD_COST (runtime/auth/password-cost.ts, docs/auth.md "Password cost in tests"):
// read when a server starts; a bad value is a StartupError naming the variable; below 17 a
// warning; hashes say their own cost, so a full-cost server upgrades them. The server-level
// side (a process that refuses to start) is in tests/auth/password-cost-server.test.ts.

import { afterEach, describe, expect, test } from "../support/jest.js";
import { applyPasswordCost } from "../../runtime/auth/password-cost.js";
import { checkPassword, hashPassword, passwordCost, verifyPassword } from "../../runtime/auth/password.js";
import { StartupError } from "../../runtime/core/errors.js";
import { createLogger } from "../../runtime/core/log.js";

function logged(): { log: ReturnType<typeof createLogger>; lines: () => Record<string, unknown>[] } {
  let text = "";
  const log = createLogger("info", (chunk) => (text += chunk));
  return {
    log,
    lines: () => {
      log.flush();
      return text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    },
  };
}

afterEach(() => applyPasswordCost({}, createLogger("error", () => undefined)));

describe("SVC_PASSWORD_COST", () => {
  test("unset or empty: N = 2^17, and nothing is logged", async () => {
    for (const env of [{}, { SVC_PASSWORD_COST: "" }]) {
      const { log, lines } = logged();
      applyPasswordCost(env, log);
      expect(passwordCost()).toBe(17);
      expect(lines()).toEqual([]);
    }
    expect(await hashPassword("pw")).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
  });

  test("a lower cost: new hashes say ln=10, verify, and the server warns once", async () => {
    const { log, lines } = logged();
    applyPasswordCost({ SVC_PASSWORD_COST: "10" }, log);
    const stored = await hashPassword("correct horse");
    expect(stored).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await checkPassword(stored, "correct horse")).toEqual({ ok: true, weak: false });
    expect(await verifyPassword(stored, "wrong")).toBe(false);
    // An unknown user still costs a hash and answers false.
    expect(await checkPassword(null, "anything")).toEqual({ ok: false, weak: false });
    const warnings = lines();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: "warn", password_cost: 10, minimum: 17 });
    expect(String(warnings[0].msg)).toContain("SVC_PASSWORD_COST");
  });

  test("a hash made at a lower cost is weak to a full-cost server: rewritten on the next sign-in", async () => {
    applyPasswordCost({ SVC_PASSWORD_COST: "10" }, createLogger("error", () => undefined));
    const cheap = await hashPassword("pw");
    applyPasswordCost({}, createLogger("error", () => undefined));
    expect(await checkPassword(cheap, "pw")).toEqual({ ok: true, weak: true });
    expect(await checkPassword(cheap, "other")).toEqual({ ok: false, weak: false });
  });

  test("a higher cost: hashes at 17 are weak to it", async () => {
    const full = await hashPassword("pw");
    const { log, lines } = logged();
    applyPasswordCost({ SVC_PASSWORD_COST: "18" }, log);
    expect(lines()).toEqual([]);
    expect(await checkPassword(full, "pw")).toEqual({ ok: true, weak: true });
  });

  test.each(["9", "21", "0", "-1", "12.5", "1e1", " 12", "twelve", "017", "999"])(
    "%j stops the server with a message naming the variable and the range",
    (value) => {
      let thrown: unknown;
      try {
        applyPasswordCost({ SVC_PASSWORD_COST: value }, createLogger("error", () => undefined));
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(StartupError);
      expect((thrown as Error).message).toBe(
        `SVC_PASSWORD_COST: ${JSON.stringify(value)} is not a password cost (log2 of scrypt's N, a whole number from 10 to 20; unset means 17)`,
      );
      expect(passwordCost()).toBe(17);
    },
  );
});
