// [auth.jwt] for an outside identity provider (compiler/project/config/auth.ts): keys only
// over https (plain http to loopback for tests), an issuer and an audience required, the
// audience check given up only in writing, and a leeway of at most five minutes.

import { describe, expect, test } from "../../support/jest.js";
import { authModel } from "../../../compiler/analyze/config/credentials.js";
import { readConfig } from "../../../compiler/project/config.js";

/** "CODE line:col" of each diagnostic, but the warning that a credential is not declared (not what is tested here). */
function codes(jwt: string): string[] {
  return readConfig("svc.toml", `[auth.jwt]\n${jwt}\n`).diagnostics.filter((d) => d.code !== "SVC4009").map((d) => `${d.code} ${d.span ? `${d.span.start.line}:${d.span.start.column}` : "-"}`);
}

const CHECKED = 'issuer = "https://idp.example/"\naudience = "my-api"';

describe("jwks_url", () => {
  test("https anywhere; plain http only to localhost, 127.x.x.x or [::1]", () => {
    for (const url of ["https://idp.example/jwks.json", "http://localhost:8080/jwks", "http://127.0.0.1:9000/k", "http://127.3.2.1/k", "http://[::1]:9000/k"]) {
      expect(codes(`jwks_url = "${url}"\n${CHECKED}`)).toEqual([]);
    }
    for (const url of ["http://idp.example/jwks.json", "http://10.0.0.1/jwks", "http://localhost.attacker.example/k", "http://127.0.0.1.nip.io/k", "http://[::2]/k"]) {
      expect(codes(`jwks_url = "${url}"\n${CHECKED}`)).toEqual(["SVC7015 2:12"]);
    }
  });

  test("the message and hint name the URL and its https form", () => {
    const [d] = readConfig("svc.toml", `[auth.jwt]\njwks_url = "http://idp.example/k"\n${CHECKED}\n`).diagnostics;
    expect(d.message).toBe("jwks_url `http://idp.example/k` is plain http; the provider's keys must come over https");
    expect(d.hint).toContain('"https://idp.example/k"');
  });

  test("needs an issuer and an audience; audience = false is the written-out choice to check none", () => {
    const url = 'jwks_url = "https://idp.example/jwks.json"';
    expect(codes(url)).toEqual(["SVC7016 1:7", "SVC7017 1:7"]);
    expect(codes(`${url}\nissuer = "https://idp.example/"`)).toEqual(["SVC7016 1:7"]);
    expect(codes(`${url}\naudience = "my-api"`)).toEqual(["SVC7017 1:7"]);
    expect(codes(`${url}\nissuer = "https://idp.example/"\naudience = false`)).toEqual([]);
    expect(codes(`${url}\nissuer = "https://idp.example/"\naudience = true`)).toEqual(["SVC4003 4:12"]);
  });

  test("a server that only signs its own tokens needs neither", () => {
    expect(codes('secret = { credential = "jwt_secret" }')).toEqual([]);
  });
});

describe("leeway", () => {
  test("a duration of at most 5 minutes, 0s included", () => {
    for (const value of ["0s", "30s", "5m", "300s"]) expect(codes(`secret = { credential = "s" }\nleeway = "${value}"`)).toEqual([]);
    expect(codes('secret = { credential = "s" }\nleeway = "301s"')).toEqual(["SVC7018 3:10"]);
    expect(codes('secret = { credential = "s" }\nleeway = "1d"')).toEqual(["SVC7018 3:10"]);
    expect(codes('secret = { credential = "s" }\nleeway = "soon"')).toEqual(["SVC7002 3:10"]);
  });
});

describe("the model", () => {
  test("audience = false checks no aud; the leeway goes to the server in seconds", () => {
    const read = (jwt: string) => authModel(readConfig("svc.toml", `[auth.jwt]\n${jwt}\n`).config)?.jwt;
    const open = read('jwks_url = "https://idp.example/k"\nissuer = "https://idp.example/"\naudience = false\nleeway = "1m"');
    expect(open).toMatchObject({ jwksUrl: "https://idp.example/k", issuer: "https://idp.example/", leewayS: 60 });
    expect(open).not.toHaveProperty("audience");
    expect(read('secret = { credential = "s" }')).not.toHaveProperty("leewayS");
  });
});
