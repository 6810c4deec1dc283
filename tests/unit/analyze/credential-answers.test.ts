// Which actions' answers carry a token or a session (ActionModel.issuesCredentials), and what a
// `fail 401` names as its challenge: decided in analysis, so every answer path (endpoint,
// declared route, route file, replay) reads one fact (docs/auth.md).

import { describe, expect, test } from "../../support/jest.js";
import type { AuthConfig } from "../../../compiler/project/config/schema.js";
import { analyzeText } from "./analyze.js";

const IDENTITY: AuthConfig = { schemes: ["Token", "Bearer"], jwt: { secret: { credential: "jwt" } }, sessions: {} };

const MODULE = `module m

action token_for(who: text) {
  return issue_token(who)
}

action sign_in(who: text) {
  start_session(who)
  return who
}

action sign_out() {
  return end_session()
}

/// Hands out what token_for made: its answer carries the token too.
action wrapped(who: text) {
  return { token: token_for(who: who) }
}

/// Reads the caller, hands out nothing.
action whoami() {
  return auth.id
}

action check(ok: bool) {
  if not ok { fail 401 "wrong password" }
  if ok { fail 403 "not yours" }
  return ok
}
`;

describe("actions whose answers carry a credential", () => {
  const { model, diagnostics } = analyzeText(MODULE, { auth: IDENTITY });
  const flagged = (name: string) => model.actions.find((a) => a.name === name)?.issuesCredentials === true;

  test("issue_token, start_session and end_session, directly or through another action", () => {
    expect(diagnostics).toEqual([]);
    expect(["token_for", "sign_in", "sign_out", "wrapped"].filter(flagged)).toEqual(["token_for", "sign_in", "sign_out", "wrapped"]);
    expect(flagged("whoami")).toBe(false);
    expect(flagged("check")).toBe(false);
  });

  test("a fail 401 carries the first scheme word as its challenge; other statuses none", () => {
    const check = model.actions.find((a) => a.name === "check")!;
    const fails = JSON.stringify(check.body);
    expect(fails).toContain('"status":401');
    const statuses = check.body.flatMap((s) => (s.kind === "if" ? s.then : [])).filter((s) => s.kind === "fail");
    expect(statuses.map((s) => (s.kind === "fail" ? [s.status, s.challenge ?? null] : null))).toEqual([
      [401, "Token"],
      [403, null],
    ]);
  });

  test("without [auth] schemes the challenge is Bearer", () => {
    const { model: plain } = analyzeText(MODULE, { auth: { jwt: { secret: { credential: "jwt" } }, sessions: {} } });
    const check = plain.actions.find((a) => a.name === "check")!;
    const first = check.body[0];
    expect(first.kind === "if" && first.then[0].kind === "fail" ? first.then[0].challenge : null).toBe("Bearer");
  });
});
