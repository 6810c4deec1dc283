// Attacks on an outside identity provider's tokens (runtime/auth/jwks.ts, jwt-checks.ts;
// docs/auth.md, "What is refused, and how"): a burst of unknown `kid`s against a provider
// that fails and recovers, key sets too large or redirected, tokens of another type, an
// `iat` from tomorrow, clock leeway, one spelling per token, and a provider's user who
// shares a subject with a local one.

import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, jest, test } from "../support/jest.js";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";
import { Identity } from "../../runtime/auth/identity.js";
import { InvalidToken, Jwt, KeysUnavailable } from "../../runtime/auth/jwt.js";
import { JWKS_MAX_BYTES, JWKS_MAX_KEYS } from "../../runtime/auth/jwks.js";
import { Credentials } from "../../runtime/core/credentials.js";
import { HttpError } from "../../runtime/core/errors.js";
import type { Database, JwtSpec } from "../../runtime/contract/index.js";
import { canonicalVariants } from "./support.js";

const ISSUER = "https://idp.example/";
const AUDIENCE = "my-api";

interface Idp {
  kid: string;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
  jwk: JWK;
}

let server: Server;
let base: string;
/** What the provider answers at /jwks.json; counts its requests. */
let answer: (req: IncomingMessage, res: ServerResponse) => void;
let fetches = 0;

async function idpKey(kid: string): Promise<Idp> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } };
}

function serve(keys: JWK[]): void {
  answer = (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ keys }));
  };
}

function failing(): void {
  answer = (_req, res) => {
    res.writeHead(503);
    res.end("down");
  };
}

function sign(idp: Idp, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: "u1", iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 300, ...claims })
    .setProtectedHeader({ alg: "ES256", kid: idp.kid, ...header })
    .sign(idp.privateKey);
}

function provider(spec: Partial<JwtSpec> = {}, values: Record<string, string> = {}): Jwt {
  const full: JwtSpec = { lifetimeS: 600, rolesClaim: "roles", issuer: ISSUER, audience: AUDIENCE, jwksUrl: `${base}/jwks.json`, ...spec };
  return new Jwt(full, new Credentials(new Map(Object.entries(values))));
}

/** How `jwt` judges `token`: "ok", "invalid" or "unavailable". */
async function outcome(jwt: Jwt, token: string): Promise<"ok" | "invalid" | "unavailable"> {
  try {
    await jwt.verify(token);
    return "ok";
  } catch (err) {
    if (err instanceof InvalidToken) return "invalid";
    if (err instanceof KeysUnavailable) return "unavailable";
    throw err;
  }
}

async function refusal(jwt: Jwt, token: string): Promise<string> {
  try {
    await jwt.verify(token);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidToken);
    return (err as Error).message;
  }
  throw new Error("the token was accepted");
}

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/jwks.json") fetches++;
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("the refetch cooldown holds, whether the provider answers or fails", () => {
  // The cooldown is read from the clock (Date.now()); here only Date is faked and stands still
  // unless the test moves it, so "within the cooldown" holds however slowly a loaded machine
  // runs the bursts, and "past the cooldown" is a step of the clock, not a sleep. Timers, I/O
  // and the provider's sockets stay real.
  afterAll(() => {
    jest.useRealTimers();
  });

  test("a burst of unknown-kid tokens makes at most one fetch per cooldown", async () => {
    const COOLDOWN = 600;
    const known = await idpKey("k-known");
    const strangers = await Promise.all(Array.from({ length: 50 }, (_, i) => idpKey(`k-unknown-${i}`)));
    const jwt = provider({ jwksCooldownMs: COOLDOWN });
    jest.useFakeTimers({
      doNotFake: ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"],
      now: Date.now(),
    });
    const pastCooldown = () => jest.setSystemTime(Date.now() + COOLDOWN);
    // Every token is signed before any burst is sent.
    const strangerTokens = await Promise.all(strangers.map((k) => sign(k)));
    const knownToken = await sign(known);
    const knownToken2 = await sign(known, { sub: "u2" });

    // The provider is down: fifty tokens at once, then fifty more, one fetch in all.
    failing();
    fetches = 0;
    const down = await Promise.all(strangerTokens.map((t) => outcome(jwt, t)));
    expect(new Set(down)).toEqual(new Set(["unavailable"]));
    for (const t of strangerTokens) expect(await outcome(jwt, t)).toBe("unavailable");
    expect(fetches).toBe(1);

    // One millisecond short of the cooldown, still no fetch.
    jest.setSystemTime(Date.now() + COOLDOWN - 1);
    expect(await outcome(jwt, strangerTokens[0]!)).toBe("unavailable");
    expect(fetches).toBe(1);

    // Past the cooldown it answers: one fetch, and the burst of unknown kids is refused.
    pastCooldown();
    serve([known.jwk]);
    const up = await Promise.all(strangerTokens.map((t) => outcome(jwt, t)));
    expect(new Set(up)).toEqual(new Set(["invalid"]));
    for (const t of strangerTokens.slice(0, 10)) expect(await outcome(jwt, t)).toBe("invalid");
    expect(await outcome(jwt, knownToken)).toBe("ok");
    expect(fetches).toBe(2);

    // Down again: one fetch for the next burst; the known key still verifies from the set it has.
    pastCooldown();
    failing();
    const again = await Promise.all(strangerTokens.map((t) => outcome(jwt, t)));
    expect(new Set(again)).toEqual(new Set(["unavailable"]));
    expect(await outcome(jwt, knownToken2)).toBe("ok");
    expect(fetches).toBe(3);
    jest.useRealTimers();
  });
});

describe("the key set is bounded", () => {
  test(`a set over ${JWKS_MAX_BYTES} bytes is refused, with or without a Content-Length`, async () => {
    const idp = await idpKey("k-big");
    const body = JSON.stringify({ keys: [idp.jwk], padding: "x".repeat(JWKS_MAX_BYTES) });
    for (const declared of [true, false]) {
      answer = (_req, res) => {
        res.writeHead(200, declared ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : { "content-type": "application/json" });
        // Without a length, the body goes out in pieces (chunked), as a lying or streaming server would send it.
        if (declared) res.end(body);
        else {
          for (let i = 0; i < body.length; i += 16384) res.write(body.slice(i, i + 16384));
          res.end();
        }
      };
      expect(await outcome(provider({ jwksCooldownMs: 0 }), await sign(idp))).toBe("unavailable");
    }
    serve([idp.jwk]);
    expect(await outcome(provider({ jwksCooldownMs: 0 }), await sign(idp))).toBe("ok");
  });

  test(`a set of more than ${JWKS_MAX_KEYS} keys is refused; ${JWKS_MAX_KEYS} are taken`, async () => {
    const idp = await idpKey("k-many");
    const filler = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({ format: "jwk" }) as JWK;
    const others = (n: number) => Array.from({ length: n }, (_, i) => ({ ...filler, kid: `filler-${i}`, alg: "ES256" }));
    serve([idp.jwk, ...others(JWKS_MAX_KEYS)]);
    expect(await outcome(provider({ jwksCooldownMs: 0 }), await sign(idp))).toBe("unavailable");
    serve([idp.jwk, ...others(JWKS_MAX_KEYS - 1)]);
    expect(await outcome(provider({ jwksCooldownMs: 0 }), await sign(idp))).toBe("ok");
  });

  test("a redirect is not followed: the set comes from the configured URL only", async () => {
    const idp = await idpKey("k-moved");
    answer = (req, res) => {
      if (req.url === "/elsewhere.json") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ keys: [idp.jwk] }));
        return;
      }
      res.writeHead(302, { location: "/elsewhere.json" });
      res.end();
    };
    expect(await outcome(provider({ jwksCooldownMs: 0 }), await sign(idp))).toBe("unavailable");
  });
});

describe("tokens a provider's key signs, refused", () => {
  let idp: Idp;
  beforeAll(async () => {
    idp = await idpKey("k-checks");
    serve([idp.jwk]);
  });

  test("typ: JWT, at+jwt (either with application/) or none are taken; any other type is not", async () => {
    const jwt = provider();
    for (const typ of ["JWT", "at+jwt", "application/at+JWT", undefined]) {
      expect(await outcome(jwt, await sign(idp, { sub: `typ-${typ}` }, typ === undefined ? {} : { typ }))).toBe("ok");
    }
    for (const typ of ["dpop+jwt", "logout+jwt", "secevent+jwt", "JOSE"]) {
      expect(await refusal(jwt, await sign(idp, {}, { typ }))).toMatch(/type \(typ\)/);
    }
  });

  test("an iat ahead of the clock by more than the leeway: a token from tomorrow is refused", async () => {
    const jwt = provider();
    const now = Math.floor(Date.now() / 1000);
    expect(await refusal(jwt, await sign(idp, { iat: now + 86400, exp: now + 90000 }))).toMatch(/issued in the future/);
    expect(await refusal(jwt, await sign(idp, { iat: now + 120 }))).toMatch(/issued in the future/);
    expect(await outcome(jwt, await sign(idp, { sub: "a-bit-ahead", iat: now + 10 }))).toBe("ok");
  });

  test("leeway: 30 s by default on exp and nbf, and what [auth.jwt] leeway says", async () => {
    const now = Math.floor(Date.now() / 1000);
    const lenient = provider();
    expect(await outcome(lenient, await sign(idp, { sub: "just-expired", iat: now - 300, exp: now - 10 }))).toBe("ok");
    expect(await outcome(lenient, await sign(idp, { sub: "nearly-valid", nbf: now + 10 }))).toBe("ok");
    expect(await refusal(lenient, await sign(idp, { iat: now - 300, exp: now - 60 }))).toMatch(/exp/);
    expect(await refusal(lenient, await sign(idp, { nbf: now + 60 }))).toMatch(/nbf/);
    const strict = provider({ leewayS: 0 });
    expect(await refusal(strict, await sign(idp, { iat: now - 300, exp: now - 10 }))).toMatch(/exp/);
    expect(await refusal(strict, await sign(idp, { iat: now + 10 }))).toMatch(/issued in the future/);
  });

  test("another audience or issuer, or no issuer at all", async () => {
    const jwt = provider();
    expect(await refusal(jwt, await sign(idp, { aud: "another-client" }))).toMatch(/aud/);
    expect(await refusal(jwt, await sign(idp, { iss: "https://tenant-b.idp.example/" }))).toMatch(/iss/);
    const unchecked = provider({ issuer: undefined });
    expect(await refusal(unchecked, await sign(idp, { iss: undefined }))).toMatch(/names no issuer/);
  });

  test("one spelling per token: a variant of the signature that decodes to the same bytes is refused", async () => {
    const jwt = provider();
    const token = await sign(idp, { sub: "canonical" });
    for (const variant of canonicalVariants(token)) {
      expect(await refusal(jwt, variant)).toMatch(/canonical base64url/);
    }
    expect(await outcome(jwt, token)).toBe("ok");
  });
});

describe("a provider's caller and a local one are two callers", () => {
  test("the same sub: `<iss>#<sub>` for the provider's, the sub for the server's own", async () => {
    const idp = await idpKey("k-same");
    serve([idp.jwk]);
    const jwt = provider({}, {});
    const own = provider({ privateKey: "jwt_key" }, { jwt_key: generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString() });
    const local = await own.verify(await own.issue("u1", null));
    const remote = await own.verify(await sign(idp, { sub: "u1" }));
    expect(local.id).toBe("u1");
    expect(remote.id).toBe("https://idp.example/#u1");
    expect((await jwt.verify(await sign(idp, { sub: "u1", roles: ["r"] }))).claims.sub).toBe("u1");
    expect(own.providerPrefix).toBe("https://idp.example/#");
  });
});

describe("a subject this server signs in may not be named like another kind of caller", () => {
  test("neither `<issuer>#…` (a provider's caller) nor `bearer:…` (a token list's) is issued", async () => {
    const identity = new Identity(
      { bearer: { credential: "api_tokens" }, jwt: { lifetimeS: 600, rolesClaim: "roles", secret: "jwt_secret", issuer: ISSUER, audience: AUDIENCE, jwksUrl: `${base}/jwks.json` } },
      new Credentials(new Map([["api_tokens", "token-one admin"], ["jwt_secret", "s".repeat(40)]])),
      null as unknown as Database,
    );
    for (const subject of ["https://idp.example/#u1", "bearer:0123456789abcdef"]) {
      expect(() => identity.issueToken(subject, null)).toThrow(HttpError);
      expect(() => identity.issueToken(subject, null)).toThrow(/may not begin with/);
    }
    expect(typeof (await identity.issueToken("u1", null))).toBe("string");
  });
});
