// What answers carrying identity say to caches and clients (docs/auth.md, "What is refused,
// and how"), on the accounts example: every answer of an action that hands out a token or a
// session is `Cache-Control: no-store` on every path to it (module endpoint, declared route,
// route-file block, a call with an Idempotency-Key), so are pages rendered for a caller; an action's own
// `fail 401` names its challenge in `WWW-Authenticate`.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call, type Answer } from "../support/http.js";
import { CHEAP_PASSWORDS } from "../support/server.js";
import { type Accounts, post, startAccounts } from "./support.js";

let accounts: Accounts;
let url: string;

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const CREDENTIALS = { email: "kim@example.com", password: "open sesame" };
const FORM_BODY = "email=kim%40example.com&password=open+sesame";

const noStore = (answer: Answer) => answer.headers["cache-control"] === "no-store";

beforeAll(async () => {
  // What answers say to caches, not what a hash costs: hashes at N = 2^10 (tests/README.md).
  accounts = await startAccounts(CHEAP_PASSWORDS);
  url = accounts.server.url;
});

afterAll(async () => {
  await accounts.stop();
});

describe("Cache-Control: no-store on answers carrying a token or a session", () => {
  test("a declared route and the module endpoint of an action that issues a token, its failures too", async () => {
    const signUp = await post(accounts.server, "/api/users", { ...CREDENTIALS, name: "Kim" });
    // Sign-up answers no token (it must not tell which e-mails have accounts; clients sign in
    // next), so it is left to the caches like any answer that hands out nothing.
    expect([signUp.status, signUp.json.data.token, noStore(signUp)]).toEqual([200, undefined, false]);
    for (const path of ["/api/users/login", "/api/accounts:sign_in"]) {
      const ok = await post(accounts.server, path, CREDENTIALS);
      expect([ok.status, typeof ok.json.data.token, noStore(ok)]).toEqual([200, "string", true]);
      const wrong = await post(accounts.server, path, { ...CREDENTIALS, password: "wrong" });
      expect([wrong.status, noStore(wrong)]).toEqual([401, true]);
    }
  });

  test("an action that hands out nothing is left to the caches: the answer decides nothing, the build does", async () => {
    const whoami = await post(accounts.server, "/api/accounts:whoami", {});
    expect(whoami.status).toBe(200);
    expect(whoami.headers["cache-control"]).toBeUndefined();
  });

  test("the sessions' module endpoints: starting one and ending one", async () => {
    const start = await post(accounts.server, "/api/accounts:sign_in_session", CREDENTIALS);
    expect([start.status, String(start.headers["set-cookie"]).startsWith("svc_session="), noStore(start)]).toEqual([200, true, true]);
    const end = await post(accounts.server, "/api/accounts:sign_out", {});
    expect([end.status, noStore(end)]).toEqual([200, true]);
  });

  test("a route-file block that starts or ends a session: the form's 303, a JSON call, signing out", async () => {
    const form = await call(`${url}/session`, { method: "POST", headers: FORM, body: FORM_BODY });
    expect([form.status, noStore(form)]).toEqual([303, true]);
    const json = await call(`${url}/session`, { method: "POST", json: CREDENTIALS });
    expect([json.status, noStore(json)]).toEqual([200, true]);
    const out = await call(`${url}/session?handler=out`, { method: "POST", headers: FORM, body: "" });
    expect([out.status, noStore(out)]).toEqual([303, true]);
  });

  test("a sign-in sent twice with one Idempotency-Key: never replayed, each answer no-store", async () => {
    const key = { "idempotency-key": "answers-replay-1" };
    const first = await post(accounts.server, "/api/accounts:sign_in", CREDENTIALS, key);
    const again = await post(accounts.server, "/api/accounts:sign_in", CREDENTIALS, key);
    expect([first.status, noStore(first)]).toEqual([200, true]);
    expect([again.status, again.headers["idempotent-replayed"], noStore(again)]).toEqual([200, undefined, true]);
  });

  test("pages: rendered for a caller, no-store; for nobody, left to the caches", async () => {
    const form = await call(`${url}/session`, { method: "POST", headers: FORM, body: FORM_BODY });
    const cookie = String(form.headers["set-cookie"]).split(";")[0];
    for (const path of ["/", "/sign-in"]) {
      const signedIn = await call(`${url}${path}`, { headers: { cookie, accept: "text/html" } });
      expect([signedIn.status, noStore(signedIn)]).toEqual([200, true]);
      const anonymous = await call(`${url}${path}`, { headers: { accept: "text/html" } });
      expect([anonymous.status, anonymous.headers["cache-control"]]).toEqual([200, undefined]);
    }
  });
});

describe("an action's own fail 401 names its challenge", () => {
  test("in the envelope, on a declared route, a module endpoint and a route-file block called with JSON", async () => {
    for (const path of ["/api/users/login", "/api/accounts:sign_in", "/session"]) {
      const wrong = await call(`${url}${path}`, { method: "POST", json: { ...CREDENTIALS, password: "wrong" } });
      expect([wrong.status, wrong.headers["www-authenticate"], wrong.json]).toEqual([401, "Bearer", { ok: false, error: "wrong e-mail or password" }]);
    }
  });

  test("a form post still gets its form back (422), to fix and send again", async () => {
    const wrong = await call(`${url}/session`, { method: "POST", headers: { ...FORM, referer: `${url}/sign-in` }, body: "email=kim%40example.com&password=nope" });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain("wrong e-mail or password");
  });
});
