// Bearer tokens with roles (docs/language.md §6, RFC 6750): the token list, the header, and the
// 401/403 answers with their WWW-Authenticate challenges.

import type { IncomingMessage } from "node:http";
import { describe, expect, test } from "@jest/globals";
import { AuthError, BearerTokens, authorize, bearerToken } from "../../runtime/auth.js";
import { HttpError, StartupError } from "../../runtime/errors.js";
import type { Requirement } from "../../runtime/types.js";

const LIST = [
  "# deploy tokens",
  "reader",
  "",
  "  admin-1 admin  ",
  "ops ops admin",
  "reader auditor",
  "t0k3n+/_~.-==",
].join("\n");
const tokens = BearerTokens.parse(LIST, "api_tokens");

function request(authorization?: string): IncomingMessage {
  return { headers: authorization === undefined ? {} : { authorization } } as IncomingMessage;
}

/** `status WWW-Authenticate`, or "ok". */
function answer(header: string | undefined, requirement: Requirement, auth: BearerTokens | null = tokens): string {
  try {
    authorize({ req: request(header), requestId: "r", auth }, requirement);
    return "ok";
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return `${err.status} ${err.headers?.["WWW-Authenticate"]}`;
  }
}

const AUTH: Requirement = { kind: "auth" };
const ADMIN: Requirement = { kind: "role", role: "admin" };

describe("the token list", () => {
  test("tokens one per line, roles after them, comments and blank lines skipped", () => {
    expect(answer("Bearer reader", AUTH)).toBe("ok");
    expect(answer("Bearer admin-1", ADMIN)).toBe("ok");
    expect(answer("Bearer ops", { kind: "role", role: "ops" })).toBe("ok");
    expect(answer("Bearer ops", ADMIN)).toBe("ok");
    expect(answer("Bearer t0k3n+/_~.-==", AUTH)).toBe("ok");
    expect(answer("Bearer # deploy tokens", AUTH)).toMatch(/^401/);
  });

  test("a token on several lines has the roles of all of them", () => {
    expect(answer("Bearer reader", { kind: "role", role: "auditor" })).toBe("ok");
    expect(answer("Bearer reader", ADMIN)).toBe('403 Bearer error="insufficient_scope"');
  });

  test("a list without tokens stops the start", () => {
    expect(() => BearerTokens.parse("# nobody\n\n", "api_tokens")).toThrow(StartupError);
    expect(() => BearerTokens.parse("", "api_tokens")).toThrow('credential "api_tokens" holds no bearer token');
  });

  test("a token with characters RFC 6750 does not allow names the line, not the token", () => {
    const attempt = () => BearerTokens.parse('good\nbad"token role\n', "api_tokens");
    expect(attempt).toThrow(StartupError);
    expect(attempt).toThrow(/line 2/);
    expect(attempt).not.toThrow(/bad"token/);
  });
});

describe("answers", () => {
  test("no Authorization header: 401 with a bare Bearer challenge", () => {
    expect(answer(undefined, AUTH)).toBe("401 Bearer");
  });

  test("another scheme sends no bearer token: 401 with a bare challenge", () => {
    expect(answer("Basic cmVhZGVyOng=", AUTH)).toBe("401 Bearer");
  });

  test("an unknown, empty or malformed bearer token: 401 invalid_token", () => {
    for (const header of [
      "Bearer nope",
      "Bearer",
      "Bearer    ",
      "Bearer reader extra",
      "Bearer réader",
      "Bearer readerX",
      "Bearer reade",
    ]) {
      expect(answer(header, AUTH)).toBe('401 Bearer error="invalid_token"');
    }
  });

  test("the scheme in any case, surrounding spaces ignored", () => {
    expect(answer("bearer reader", AUTH)).toBe("ok");
    expect(answer("BEARER   reader  ", AUTH)).toBe("ok");
  });

  test("a valid token without the role: 403 insufficient_scope", () => {
    expect(answer("Bearer reader", ADMIN)).toBe('403 Bearer error="insufficient_scope"');
  });

  test("failures are AuthErrors, so pages can answer them as they are", () => {
    expect(() => authorize({ req: request(undefined), requestId: "r", auth: tokens }, AUTH)).toThrow(AuthError);
    expect(() => authorize({ req: request("Bearer reader"), requestId: "r", auth: tokens }, ADMIN)).toThrow(AuthError);
  });

  test("without an Authenticator (a caller that did not pass one) it fails closed", () => {
    expect(answer("Bearer reader", AUTH, null)).toBe("401 Bearer");
  });

  test("messages say what is needed, never a token", () => {
    try {
      authorize({ req: request("Bearer reader"), requestId: "r", auth: tokens }, ADMIN);
    } catch (err) {
      expect((err as Error).message).toBe('this needs a token with the role "admin"');
    }
    expect.assertions(1);
  });
});

describe("bearerToken", () => {
  test.each([
    [undefined, null],
    ["Basic abc", null],
    ["Bearerabc", null],
    ["Bearer abc", "abc"],
    ["bEaReR\tabc", "abc"],
    ["Bearer a b", ""],
    ["Bearer", ""],
  ])("%p → %p", (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});
