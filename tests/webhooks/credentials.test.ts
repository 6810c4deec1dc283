// Credentials are read once at start (docs/language.md §6): from [credentials]' env or file, else
// SVC_CREDENTIAL_<NAME>. A missing one stops the start with a message naming it and where
// it was looked for; no message ever holds a value.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "../support/jest.js";
import { MAX_CREDENTIAL_BYTES, fallbackEnvName, resolveCredentials } from "../../runtime/core/credentials.js";
import { StartupError } from "../../runtime/core/errors.js";
import type { CredentialSpec } from "../../runtime/contract/index.js";
import { removeDir, tmpDir } from "../support/server.js";

const dir = tmpDir("creds-");
afterAll(() => removeDir(dir));

const env = (name: string, from: string): CredentialSpec => ({ name, from: { env: from }, declared: true });
const file = (name: string, path: string): CredentialSpec => ({ name, from: { file: path }, declared: true });
const fallback = (name: string): CredentialSpec => ({ name, from: { env: fallbackEnvName(name) }, declared: false });

function startupMessage(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(StartupError);
    return (err as Error).message;
  }
  throw new Error("expected a StartupError");
}

describe("resolving credentials", () => {
  test("from a declared environment variable, used as it is", () => {
    const c = resolveCredentials([env("gh", "GH_SECRET")], { GH_SECRET: " spaced secret\n" });
    expect(c.get("gh")).toBe(" spaced secret\n");
  });

  test("from a declared file, without its trailing line breaks", () => {
    const path = join(dir, "secret.txt");
    writeFileSync(path, "line one\nline two\r\n\n");
    expect(resolveCredentials([file("tokens", path)], {}).get("tokens")).toBe("line one\nline two");
  });

  test("an undeclared credential from SVC_CREDENTIAL_<NAME in upper case>", () => {
    expect(fallbackEnvName("stripe_webhook")).toBe("SVC_CREDENTIAL_STRIPE_WEBHOOK");
    const c = resolveCredentials([fallback("stripe_webhook")], { SVC_CREDENTIAL_STRIPE_WEBHOOK: "whsec_x" });
    expect(c.get("stripe_webhook")).toBe("whsec_x");
  });

  test("a missing environment variable names the credential, the variable and the svc.toml entry", () => {
    const message = startupMessage(() => resolveCredentials([env("github_webhook", "GITHUB_WEBHOOK_SECRET")], {}));
    expect(message).toContain('credential "github_webhook" is missing');
    expect(message).toContain("GITHUB_WEBHOOK_SECRET is not set");
    expect(message).toContain('[credentials] github_webhook = { env = "GITHUB_WEBHOOK_SECRET" }');
  });

  test("a missing undeclared credential says it was looked for in SVC_CREDENTIAL_<NAME>", () => {
    const message = startupMessage(() => resolveCredentials([fallback("hmac_key")], {}));
    expect(message).toContain("SVC_CREDENTIAL_HMAC_KEY is not set");
    expect(message).toContain("does not declare it under [credentials]");
  });

  test("an unreadable file names the path and why, relative paths against the working folder", () => {
    const missing = startupMessage(() => resolveCredentials([file("tokens", "no/such/tokens.txt")], {}));
    expect(missing).toContain("cannot read the file no/such/tokens.txt (no such file, relative to");
    expect(missing).toContain('{ file = "no/such/tokens.txt" }');
    const folder = join(dir, "a-folder");
    mkdirSync(folder, { recursive: true });
    expect(startupMessage(() => resolveCredentials([file("tokens", folder)], {}))).toContain("it is a folder");
  });

  test("empty values are missing values", () => {
    expect(startupMessage(() => resolveCredentials([env("x", "X")], { X: "" }))).toContain(
      "is empty: the environment variable X is set but empty",
    );
    const path = join(dir, "empty.txt");
    writeFileSync(path, "\n");
    expect(startupMessage(() => resolveCredentials([file("y", path)], {}))).toContain(
      `is empty: the file ${path} holds nothing`,
    );
  });

  test("a file far larger than any secret is refused", () => {
    const message = startupMessage(() =>
      resolveCredentials([file("big", "big.txt")], {}, () => Buffer.alloc(MAX_CREDENTIAL_BYTES + 1, 97)),
    );
    expect(message).toContain(`holds more than ${MAX_CREDENTIAL_BYTES} bytes`);
  });

  test("every missing credential is named in one message", () => {
    const message = startupMessage(() =>
      resolveCredentials([env("a", "A_SECRET"), env("b", "B_SECRET"), fallback("c")], { B_SECRET: "present" }),
    );
    expect(message).toMatch(/^2 credentials are missing:/);
    expect(message).toContain('credential "a"');
    expect(message).toContain('credential "c"');
    expect(message).not.toContain('credential "b"');
  });

  test("no message and no serialisation holds a value", () => {
    const secret = "s3cr3t-value-never-printed";
    const c = resolveCredentials([env("a", "A")], { A: secret });
    expect(JSON.stringify(c)).toBe('{"credentials":["a"]}');
    expect(JSON.stringify({ c })).not.toContain(secret);
    const message = startupMessage(() => resolveCredentials([env("a", "A"), env("b", "B")], { A: secret }));
    expect(message).not.toContain(secret);
  });

  test("asking for a credential that was not resolved is a bug, said plainly", () => {
    expect(() => resolveCredentials([], {}).get("nope")).toThrow('credential "nope" was not resolved at start');
  });
});
