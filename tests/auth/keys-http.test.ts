// An EdDSA-signing server that also accepts an outside provider's tokens (its JWKS on
// 127.0.0.1), over HTTP: own tokens, provider tokens across a key rotation, and forged ones.

import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "../support/jest.js";
import { SignJWT, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK } from "jose";
import { call } from "../support/http.js";
import { buildTo, removeDir, startServer, tmpDir, type TestServer } from "../support/server.js";

const MODULE = `module keys

action issue(subject: text) {
  return issue_token(subject, ["writer"])
}

action issue_from(grant: json) {
  return issue_token(grant.subject, grant.roles)
}

action whoami() {
  return { id: auth.id, roles: auth.roles }
}

action write() requires role "writer" {
  return auth.id
}
`;

let jwks: Server;
let served: JWK[] = [];
let project: string;
let out: string;
let server: TestServer;
let idp: { privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"]; kid: string };

async function rotate(kid: string): Promise<void> {
  const { privateKey, publicKey } = await generateKeyPair("EdDSA");
  idp = { privateKey, kid };
  served = [{ ...(await exportJWK(publicKey)), kid, alg: "EdDSA" }];
}

function idpToken(sub: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub, roles: ["writer"], iss: "https://api.example", aud: "keys-api", exp: now + 120 })
    .setProtectedHeader({ alg: "EdDSA", kid: idp.kid })
    .sign(idp.privateKey);
}

beforeAll(async () => {
  jwks = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ keys: served }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
  await rotate("idp-1");
  project = tmpDir("keys-src-");
  mkdirSync(join(project, "modules", "keys"), { recursive: true });
  writeFileSync(join(project, "modules", "keys", "keys.svc"), MODULE);
  writeFileSync(
    join(project, "svc.toml"),
    [
      "[credentials]",
      'jwt_key = { env = "JWT_KEY" }',
      "[auth.jwt]",
      'private_key = { credential = "jwt_key" }',
      `jwks_url = "${jwksUrl}"`,
      'jwks_cooldown = "0s"',
      'issuer = "https://api.example"',
      'audience = "keys-api"',
      'lifetime = "15m"',
      "",
    ].join("\n"),
  );
  out = await buildTo({ mode: "project", dir: project });
  const key = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  server = await startServer(out, ["--db", ":memory:"], { JWT_KEY: key });
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => jwks.close(resolve));
  removeDir(project);
  removeDir(out);
});

const whoami = (token: string) =>
  call(`${server.url}/api/keys:whoami`, { method: "POST", json: {}, headers: { authorization: `Bearer ${token}` } });

test("the server's own tokens: EdDSA, a kid, exp 15 minutes after iat", async () => {
  const issued = await call(`${server.url}/api/keys:issue`, { method: "POST", json: { subject: "local" } });
  const token = issued.json.data as string;
  expect(decodeProtectedHeader(token)).toMatchObject({ alg: "EdDSA", typ: "JWT" });
  const answer = await whoami(token);
  expect(answer.json.data).toEqual({ id: "local", roles: ["writer"] });
  const write = await call(`${server.url}/api/keys:write`, { method: "POST", json: {}, headers: { authorization: `Bearer ${token}` } });
  expect(write.json.data).toBe("local");
});

test("the provider's tokens, before and after it rotates its key", async () => {
  expect((await whoami(await idpToken("before"))).json.data.id).toBe("https://api.example#before");
  const old = await idpToken("old-key");
  await rotate("idp-2");
  expect((await whoami(await idpToken("after"))).json.data.id).toBe("https://api.example#after");
  const refused = await whoami(old);
  expect(refused.status).toBe(401);
  expect(refused.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
});

test("a local subject named like a provider's caller is refused: the two stay two callers", async () => {
  const issue = (subject: string) => call(`${server.url}/api/keys:issue`, { method: "POST", json: { subject } });
  const provider = await whoami(await idpToken("alice"));
  expect(provider.json.data.id).toBe("https://api.example#alice");
  const mimic = await issue("https://api.example#alice");
  expect(mimic.status).toBe(400);
  expect(mimic.json.error).toMatch(/may not begin with "https:\/\/api\.example#"/);
  const local = await issue("alice");
  expect((await whoami(local.json.data as string)).json.data.id).toBe("alice");
});

test("algorithm confusion: HS256 keyed with the provider's public JWK is refused", async () => {
  const now = Math.floor(Date.now() / 1000);
  const forged = await new SignJWT({ sub: "admin", roles: ["writer"], iss: "https://api.example", aud: "keys-api", exp: now + 60 })
    .setProtectedHeader({ alg: "HS256", kid: idp.kid })
    .sign(new TextEncoder().encode(JSON.stringify(served[0])));
  const answer = await whoami(forged);
  expect(answer.status).toBe(401);
  expect(answer.json.error).toMatch(/^invalid token/);
});

test("roles read out of json are checked item by item: a role that is not text is a 400, never a claim", async () => {
  const issue = (grant: unknown) => call(`${server.url}/api/keys:issue_from`, { method: "POST", json: { grant } });
  const number = await issue({ subject: "s", roles: ["writer", 7] });
  expect(number.status).toBe(400);
  expect(number.json.error).toBe("grant.roles[1] must be text");
  const notList = await issue({ subject: "s", roles: "writer" });
  expect(notList.status).toBe(400);
  expect(notList.json.error).toBe("grant.roles must be a list of text");
  const good = await issue({ subject: "s", roles: ["writer"] });
  expect((await whoami(good.json.data as string)).json.data).toEqual({ id: "s", roles: ["writer"] });
  const none = await issue({ subject: "s", roles: null });
  expect((await whoami(none.json.data as string)).json.data).toEqual({ id: "s", roles: [] });
});

