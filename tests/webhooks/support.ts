// Helpers for the webhook and auth tests: the test project built against the runtime
// compiled next to these tests (not whatever `svc/runtime` resolves to), its secrets and
// tokens, and signing by hand for the providers without an official signing library.

import { createHmac } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DiscoverTarget } from "../../compiler/project/discover.js";
import { buildFiles, serverBuild, writeFiles } from "../support/build-cache.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, startServer, tmpDir } from "../support/server.js";

/** The runtime compiled alongside this file (build/runtime or build-NAME/runtime). */
export const runtimeUrl = new URL("../../runtime/index.js", import.meta.url).href;

export const hooksProject = join(repoRoot, "tests", "webhooks", "projects", "hooks");

export const SECRETS = {
  github: "It's a Secret to Everybody",
  stripe: "whsec_test_0123456789abcdefghijklmnop",
  slack: "8f742231b10e8888abcd99yyyzzz85a5",
  // Svix's documentation secret: whsec_ + base64 of the key.
  standard: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  hmac: "plain-hmac-secret",
} as const;

export const TOKENS = { reader: "reader-token", admin: "admin-token", ops: "ops.token_2~+/=" } as const;

/** What svc.toml's [credentials] points at, plus the undeclared hmac secret's SVC_CREDENTIAL_ variable. */
export const HOOKS_ENV: NodeJS.ProcessEnv = {
  TEST_GITHUB_SECRET: SECRETS.github,
  TEST_STRIPE_SECRET: SECRETS.stripe,
  TEST_SLACK_SECRET: SECRETS.slack,
  SVC_CREDENTIAL_HMAC_SECRET: SECRETS.hmac,
};

/** Builds `target` into a fresh folder under build/tmp and returns it. */
export async function buildServer(target: DiscoverTarget = { mode: "project", dir: hooksProject }): Promise<string> {
  const files = await buildFiles(target, serverBuild(runtimeUrl));
  const dir = tmpDir("hooks-");
  writeFiles(dir, files);
  return dir;
}

/** Writes the file credentials of the test project into `dir`, where the server runs. */
export function writeFileCredentials(dir: string): void {
  writeFileSync(join(dir, "standard_secret.txt"), `${SECRETS.standard}\n`);
  writeFileSync(
    join(dir, "tokens.txt"),
    ["# tokens for the tests", TOKENS.reader, `${TOKENS.admin} admin`, "", `${TOKENS.ops} ops admin`, ""].join("\n"),
  );
}

/** The test project built and serving on `db`, with every credential in place. */
export async function startHooks(dir: string, db: string, extraArgs: string[] = []): Promise<TestServer> {
  return startServer(dir, ["--db", db, "--workers", "1", ...extraArgs], HOOKS_ENV);
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export function hmacHex(key: string | Buffer, data: string | Buffer): string {
  return createHmac("sha256", key).update(data).digest("hex");
}

/** Slack's headers for `body` at `timestamp`, signed as its docs describe (no official signing library). */
export function slackHeaders(body: string, timestamp: number, secret: string = SECRETS.slack): Record<string, string> {
  return {
    "x-slack-request-timestamp": String(timestamp),
    "x-slack-signature": `v0=${hmacHex(secret, `v0:${timestamp}:${body}`)}`,
  };
}

/** `X-Signature` for the plain hmac provider. */
export function hmacHeaders(body: string, secret: string = SECRETS.hmac): Record<string, string> {
  return { "x-signature": hmacHex(secret, body) };
}
