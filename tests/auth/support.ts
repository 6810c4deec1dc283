// Identity tests: the accounts example served on 127.0.0.1, tokens made with jose the way
// an attacker or another issuer would make them, and raw requests for what HTTP clients
// will not send (two Authorization headers).

import { connect } from "node:net";
import { join } from "node:path";
import { SignJWT } from "jose";
import { call, type Answer } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { buildTo, removeDir, startServer, type TestServer } from "../support/server.js";

/** The example's JWT secret in tests: 48 bytes. */
export const SECRET = "test-secret-test-secret-test-secret-test-secret!";
export const ISSUER = "https://accounts.example";
export const AUDIENCE = "accounts";

export interface Accounts {
  server: TestServer;
  dir: string;
  stop(): Promise<void>;
}

/** Builds examples/accounts and serves it on a fresh SQLite file. */
export async function startAccounts(env: NodeJS.ProcessEnv = {}): Promise<Accounts> {
  const dir = await buildTo({ mode: "project", dir: join(repoRoot, "examples", "accounts") });
  const server = await startServer(dir, ["--db", join(dir, "accounts.db")], { JWT_SECRET: SECRET, ...env });
  return {
    server,
    dir,
    stop: async () => {
      await server.stop();
      removeDir(dir);
    },
  };
}

export function post(server: TestServer, path: string, json: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(server.url + path, { method: "POST", json, headers });
}

/** A token signed with the example's secret, claims as given (exp, iss and aud defaulted), typed `JWT` as svc's own are. */
export async function hs256(claims: Record<string, unknown>, options: { secret?: string; header?: Record<string, unknown> } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 600, ...claims };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256", typ: "JWT", ...options.header })
    .sign(new TextEncoder().encode(options.secret ?? SECRET));
}

/** A request with the header lines exactly as given (ending in `Connection: close`), over a plain socket; the raw answer. */
export function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(head));
    let out = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (out += d));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer")));
  });
}

/** `header.payload.signature` with one character of the payload changed. */
export function flipPayload(token: string): string {
  const [h, p, s] = token.split(".");
  const i = Math.floor(p.length / 2);
  const flipped = p[i] === "A" ? "B" : "A";
  return [h, p.slice(0, i) + flipped + p.slice(i + 1), s].join(".");
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Other spellings of `token` whose signature decodes to the same bytes: an unused bit set in
 * its last character, `=` padding, and the `+`/`/` alphabet (when the signature has `-` or `_`).
 * Each is checked to decode the same, so a test that refuses them refuses the real attack.
 */
export function canonicalVariants(token: string): string[] {
  const [h, p, s] = token.split(".");
  const variants: string[] = [];
  const rest = s.length % 4;
  if (rest !== 0) {
    const last = BASE64URL.indexOf(s[s.length - 1]);
    variants.push(s.slice(0, -1) + BASE64URL[last | 1]);
    variants.push(s + "=".repeat(4 - rest));
  }
  const standard = s.replace(/-/g, "+").replace(/_/g, "/");
  if (standard !== s) variants.push(standard);
  for (const v of variants) {
    if (!Buffer.from(v, "base64url").equals(Buffer.from(s, "base64url"))) throw new Error(`${v} does not decode as ${s} does`);
  }
  return variants.map((v) => `${h}.${p}.${v}`);
}
