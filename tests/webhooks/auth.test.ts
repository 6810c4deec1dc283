// Bearer tokens with roles (docs/language.md §6, RFC 6750): the token list, the header, and the
// 401/403 answers with their WWW-Authenticate challenges.

import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, test } from "../support/jest.js";
import { AuthError, BearerTokens, Identity, authorize } from "../../runtime/auth/index.js";
import { Credentials } from "../../runtime/core/credentials.js";
import { HttpError, StartupError } from "../../runtime/core/errors.js";
import type { Caller, Database, Requirement } from "../../runtime/contract/index.js";

const LIST = [
  "# deploy tokens",
  "reader",
  "",
  "  admin-1 admin  ",
  "ops ops admin",
  "reader auditor",
  "t0k3n+/_~.-==",
].join("\n");
const identity = new Identity(
  { bearer: { credential: "api_tokens" } },
  new Credentials(new Map([["api_tokens", LIST]])),
  null as unknown as Database,
);
const res = {} as ServerResponse;

function request(authorization?: string): IncomingMessage {
  return {
    headers: authorization === undefined ? {} : { authorization },
    rawHeaders: authorization === undefined ? [] : ["Authorization", authorization],
  } as unknown as IncomingMessage;
}

/** Who `header` says is calling, as the server resolves it before an endpoint runs. */
function callerOf(header: string | undefined): Caller | null {
  return identity.resolve(request(header), res) as Caller | null;
}

/** `status WWW-Authenticate`, or "ok". */
function answer(header: string | undefined, requirement: Requirement, withIdentity = true): string {
  try {
    const caller = withIdentity ? callerOf(header) : null;
    authorize({ req: request(header), requestId: "r", caller, identity: withIdentity ? identity : null }, requirement);
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

  test("another scheme is a credential sent and refused: 401 invalid_token", () => {
    expect(answer("Basic cmVhZGVyOng=", AUTH)).toBe('401 Bearer error="invalid_token"');
    expect(answer("Token reader", AUTH)).toBe('401 Bearer error="invalid_token"');
  });

  test("a listed token is a caller with its roles and a stable id that is not the token", () => {
    const caller = callerOf("Bearer reader")!;
    expect(caller.roles).toEqual(["auditor"]);
    expect(caller.id).toMatch(/^bearer:[0-9a-f]{16}$/);
    expect(caller.id).not.toContain("reader");
    expect(callerOf("Bearer reader")!.id).toBe(caller.id);
    expect(callerOf("Bearer ops")!.id).not.toBe(caller.id);
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
    expect(() => authorize({ req: request(undefined), requestId: "r", caller: null, identity }, AUTH)).toThrow(AuthError);
    expect(() => callerOf("Bearer nope")).toThrow(AuthError);
    const caller = callerOf("Bearer reader");
    expect(() => authorize({ req: request("Bearer reader"), requestId: "r", caller, identity }, ADMIN)).toThrow(AuthError);
  });

  test("without identity (a caller that did not pass one) it fails closed", () => {
    expect(answer("Bearer reader", AUTH, false)).toBe("401 Bearer");
  });

  test("messages say what is needed, never a token", () => {
    try {
      authorize({ req: request("Bearer reader"), requestId: "r", caller: callerOf("Bearer reader"), identity }, ADMIN);
    } catch (err) {
      expect((err as Error).message).toBe('this needs the role "admin"');
    }
    expect.assertions(1);
  });
});

describe("the header", () => {
  test("two Authorization headers are refused, whatever they hold", () => {
    const req = {
      headers: { authorization: "Bearer reader" },
      rawHeaders: ["Authorization", "Bearer reader", "authorization", "Bearer admin-1"],
    } as unknown as IncomingMessage;
    expect(() => identity.resolve(req, res)).toThrow("send one Authorization header");
  });

  test("no header is anonymous, not an error", () => {
    expect(callerOf(undefined)).toBeNull();
  });
});
