// Asymmetric keys and outside identity providers (runtime/auth/jwt.ts): EdDSA and ES256
// keys from credentials, algorithm confusion, keys refused at start, and a JWKS server on
// 127.0.0.1 whose keys rotate.

import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { SignJWT, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, type JWK } from "jose";
import { InvalidToken, Jwt, KeysUnavailable } from "../../runtime/auth/jwt.js";
import { Credentials } from "../../runtime/core/credentials.js";
import { StartupError } from "../../runtime/core/errors.js";
import type { JwtSpec } from "../../runtime/contract/index.js";

const BASE: JwtSpec = { lifetimeS: 600, rolesClaim: "roles", issuer: "https://api.example", audience: "example" };

function pem(type: "ed25519" | "ec" | "rsa"): { privatePem: string; publicPem: string } {
  const pair =
    type === "ec"
      ? generateKeyPairSync("ec", { namedCurve: "prime256v1" })
      : type === "rsa"
        ? generateKeyPairSync("rsa", { modulusLength: 2048 })
        : generateKeyPairSync("ed25519");
  return {
    privatePem: pair.privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    publicPem: pair.publicKey.export({ format: "pem", type: "spki" }).toString(),
  };
}

function jwtWith(spec: Partial<JwtSpec>, values: Record<string, string>): Jwt {
  return new Jwt({ ...BASE, ...spec }, new Credentials(new Map(Object.entries(values))));
}

async function rejects(jwt: Jwt, token: string): Promise<string> {
  try {
    await jwt.verify(token);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidToken);
    return (err as Error).message;
  }
  throw new Error("the token was accepted");
}

describe("keys from credentials", () => {
  test.each<["ed25519" | "ec", string]>([
    ["ed25519", "EdDSA"],
    ["ec", "ES256"],
  ])("%s: the algorithm comes from the key; tokens verify with its public part", async (type, alg) => {
    const { privatePem, publicPem } = pem(type);
    const jwt = jwtWith({ privateKey: "jwt_key" }, { jwt_key: privatePem });
    const token = await jwt.issue("user-1", ["editor"]);
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe(alg);
    expect(header.kid).toMatch(/^svc-/);
    const { createPublicKey } = await import("node:crypto");
    const { payload } = await jwtVerify(token, createPublicKey(publicPem), { issuer: BASE.issuer, audience: BASE.audience });
    expect(payload.sub).toBe("user-1");
    expect(payload.roles).toEqual(["editor"]);
    expect(await jwt.verify(token)).toEqual({ id: "user-1", roles: ["editor"], claims: payload });
  });

  test("algorithm confusion: HS256 signed with the public key's text is refused", async () => {
    const { privatePem, publicPem } = pem("ed25519");
    const jwt = jwtWith({ privateKey: "jwt_key" }, { jwt_key: privatePem });
    const now = Math.floor(Date.now() / 1000);
    for (const secret of [publicPem, publicPem.trim()]) {
      const forged = await new SignJWT({ sub: "admin", roles: ["admin"], iss: BASE.issuer, aud: BASE.audience, exp: now + 60 })
        .setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode(secret));
      expect(await rejects(jwt, forged)).toMatch(/alg/i);
    }
  });

  test("a token signed by another key of the same kind is refused", async () => {
    const jwt = jwtWith({ privateKey: "jwt_key" }, { jwt_key: pem("ed25519").privatePem });
    const other = jwtWith({ privateKey: "jwt_key" }, { jwt_key: pem("ed25519").privatePem });
    expect(await rejects(jwt, await other.issue("user-1", null))).toMatch(/signature/);
  });

  test("keys refused at start, named by credential, never shown", () => {
    const rsa = pem("rsa").privatePem;
    expect(() => jwtWith({ privateKey: "jwt_key" }, { jwt_key: rsa })).toThrow(StartupError);
    expect(() => jwtWith({ privateKey: "jwt_key" }, { jwt_key: rsa })).toThrow(/use Ed25519 \(EdDSA\) or P-256 \(ES256\)/);
    expect(() => jwtWith({ privateKey: "jwt_key" }, { jwt_key: "not a key" })).toThrow('credential "jwt_key" ([auth.jwt] private_key) is not a PEM private key');
    expect(() => jwtWith({ secret: "jwt_secret" }, { jwt_secret: "short-secret" })).toThrow(/is 12 bytes: an HS256 secret needs at least 32/);
    try {
      jwtWith({ secret: "jwt_secret" }, { jwt_secret: "short-secret" });
    } catch (err) {
      expect((err as Error).message).not.toContain("short-secret");
    }
  });

  test("declared claims are checked: a claim of another type refuses the token", async () => {
    const secret = "s".repeat(40);
    const jwt = jwtWith({ secret: "jwt_secret", claims: { email: "text", groups: "list<text>" } }, { jwt_secret: secret });
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ sub: "u", iss: BASE.issuer, aud: BASE.audience, exp: Math.floor(Date.now() / 1000) + 60, ...claims })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .sign(new TextEncoder().encode(secret));
    expect((await jwt.verify(await sign({ email: "a@b.example", groups: ["x"] }))).claims.email).toBe("a@b.example");
    expect((await jwt.verify(await sign({}))).id).toBe("u");
    expect(await rejects(jwt, await sign({ email: 5 }))).toBe('the claim "email" is not text');
    expect(await rejects(jwt, await sign({ groups: ["x", 1] }))).toBe('the claim "groups" is not list<text>');
  });
});

describe("an outside identity provider's JWKS", () => {
  interface Idp {
    kid: string;
    privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
    jwk: JWK;
  }
  let server: Server;
  let url: string;
  let served: Idp[] = [];
  let fetches = 0;

  async function idpKey(kid: string): Promise<Idp> {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } };
  }

  function sign(idp: Idp, claims: Record<string, unknown> = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ sub: "idp-user", roles: ["reader"], iss: BASE.issuer, aud: BASE.audience, iat: now, exp: now + 300, ...claims })
      .setProtectedHeader({ alg: "ES256", kid: idp.kid })
      .sign(idp.privateKey);
  }

  beforeAll(async () => {
    server = createServer((_req, res) => {
      fetches++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: served.map((k) => k.jwk) }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test("keys are fetched once and cached; an unknown kid fetches again (rotation)", async () => {
    const first = await idpKey("k1");
    const second = await idpKey("k2");
    served = [first];
    fetches = 0;
    const jwt = jwtWith({ jwksUrl: url, jwksCooldownMs: 0 }, {});
    expect((await jwt.verify(await sign(first))).id).toBe("https://api.example#idp-user");
    expect((await jwt.verify(await sign(first, { sub: "another" }))).id).toBe("https://api.example#another");
    expect(fetches).toBe(1);

    // The provider rotates: k2 signs from now on and k1 is withdrawn.
    served = [second];
    const caller = await jwt.verify(await sign(second));
    expect(caller).toMatchObject({ id: "https://api.example#idp-user", roles: ["reader"] });
    expect(fetches).toBe(2);
    // A k1 token not seen before is no longer accepted.
    expect(await rejects(jwt, await sign(first, { sub: "late" }))).toMatch(/no applicable key|matching/i);
  });

  test("a server that issues with its own key also verifies the provider's, by kid", async () => {
    const idp = await idpKey("idp-1");
    served = [idp];
    const jwt = jwtWith({ jwksUrl: url, privateKey: "jwt_key" }, { jwt_key: pem("ed25519").privatePem });
    const own = await jwt.issue("local-user", null);
    expect((await jwt.verify(own)).id).toBe("local-user");
    expect((await jwt.verify(await sign(idp))).id).toBe("https://api.example#idp-user");
  });

  test("a provider whose keys cannot be fetched: KeysUnavailable (a 503), not an invalid token", async () => {
    const idp = await idpKey("k-down");
    const token = await sign(idp);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = jwtWith({ jwksUrl: `http://127.0.0.1:${port}/jwks.json`, jwksCooldownMs: 0 }, {});
    await expect(refused.verify(token)).rejects.toBeInstanceOf(KeysUnavailable);

    const failing = createServer((_req, res) => {
      res.writeHead(500);
      res.end("down");
    });
    await new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve));
    try {
      const broken = jwtWith({ jwksUrl: `http://127.0.0.1:${(failing.address() as AddressInfo).port}/jwks.json`, jwksCooldownMs: 0 }, {});
      await expect(broken.verify(token)).rejects.toBeInstanceOf(KeysUnavailable);
    } finally {
      await new Promise((resolve) => failing.close(resolve));
    }
  });

  test("HS256 tokens are never taken from a JWKS, even with a matching kid", async () => {
    const idp = await idpKey("k-hs");
    served = [idp];
    const jwt = jwtWith({ jwksUrl: url, jwksCooldownMs: 0 }, {});
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ sub: "x", iss: BASE.issuer, aud: BASE.audience, exp: now + 60 })
      .setProtectedHeader({ alg: "HS256", kid: "k-hs" })
      .sign(new TextEncoder().encode(JSON.stringify(idp.jwk)));
    expect(await rejects(jwt, forged)).toMatch(/alg/i);
  });
});
