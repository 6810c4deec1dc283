// The one cross-site rule (runtime/cross-site.ts, docs/language.md §3) as a table: which
// browser headers let a request that changes things through, with and without CORS. The
// same rule over real sockets, on every kind of target, is tests/http/cross-site.test.ts.

import type { IncomingMessage } from "node:http";
import { describe, expect, test } from "../../support/jest.js";
import { createCors } from "../../../runtime/core/cors.js";
import { CrossSiteRule, isSafeMethod, originHost } from "../../../runtime/core/cross-site.js";
import type { BoundTarget } from "../../../runtime/core/router.js";
import type { EndpointSpec } from "../../../runtime/contract/index.js";

const HOST = "app.example:8080";
const NO_SITE = { publicUrl: null, trustProxy: false };
const req = (headers: Record<string, string>) => ({ headers: { host: HOST, ...headers } }) as unknown as IncomingMessage;
const endpoint = (rawBody: boolean): BoundTarget => ({ kind: "endpoint", endpoint: { rawBody } as unknown as EndpointSpec });

describe("without CORS", () => {
  const rule = new CrossSiteRule(null, NO_SITE);
  test.each([
    ["no browser headers (curl, a server)", {}, false],
    ["Sec-Fetch-Site: same-origin", { "sec-fetch-site": "same-origin" }, false],
    ["Sec-Fetch-Site: none (the user's own navigation)", { "sec-fetch-site": "none" }, false],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }, true],
    ["Sec-Fetch-Site: cross-site without Origin", { "sec-fetch-site": "cross-site" }, true],
    ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site", origin: "http://blog.app.example:8080" }, true],
    ["an unknown Sec-Fetch-Site", { "sec-fetch-site": "elsewhere", origin: "http://app.example:8080" }, true],
    ["Origin equal to Host", { origin: "http://app.example:8080" }, false],
    ["Origin equal to Host, other case", { origin: "http://APP.example:8080" }, false],
    ["Origin on another port", { origin: "http://app.example:9090" }, true],
    ["a foreign Origin without Fetch Metadata", { origin: "https://evil.example" }, true],
    ["Origin: null (a sandboxed frame)", { origin: "null" }, true],
    ["Origin: null from a same-origin page that sends no referrer", { origin: "null", "sec-fetch-site": "same-origin" }, false],
    ["an Origin that is not one", { origin: "not an origin" }, true],
    ["an Origin with user info", { origin: "http://app.example:8080@evil.example" }, true],
  ])("%s → refused: %s", (_what, headers, refused) => {
    expect(rule.refuses(req(headers), "POST", endpoint(false))).toBe(refused);
  });

  test("every unsafe method is judged, safe ones never", () => {
    const cross = req({ "sec-fetch-site": "cross-site", origin: "https://evil.example" });
    for (const m of ["POST", "PUT", "PATCH", "DELETE", "PROPFIND"]) expect(rule.refuses(cross, m, endpoint(false))).toBe(true);
    for (const m of ["GET", "HEAD", "OPTIONS"]) {
      expect(isSafeMethod(m)).toBe(true);
      expect(rule.refuses(cross, m, endpoint(false))).toBe(false);
    }
  });

  test("every kind of routed target is judged but a webhook, which proves itself by its signature", () => {
    const cross = req({ "sec-fetch-site": "cross-site", origin: "https://evil.example" });
    const file = { kind: "file", file: { blocks: [] } } as unknown as BoundTarget;
    expect(rule.refuses(cross, "DELETE", file)).toBe(true);
    expect(rule.refuses(cross, "POST", endpoint(false))).toBe(true);
    expect(rule.refuses(cross, "POST", endpoint(true))).toBe(false);
  });

  test("default ports in an Origin match a Host without them", () => {
    const plain = { headers: { host: "app.example", origin: "https://app.example:443" } } as unknown as IncomingMessage;
    expect(rule.fromAnotherSite(plain)).toBe(false);
    expect(originHost("http://app.example:80")).toBe("app.example");
  });
});

describe("with --cors-origin https://client.example", () => {
  const rule = new CrossSiteRule(createCors("https://client.example", ["GET", "POST"]), NO_SITE);
  test.each([
    ["the allowed origin, cross-site", { "sec-fetch-site": "cross-site", origin: "https://client.example" }, false],
    ["the allowed origin as a sibling subdomain", { "sec-fetch-site": "same-site", origin: "https://client.example" }, false],
    ["the allowed origin without Fetch Metadata", { origin: "https://client.example" }, false],
    ["another origin", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }, true],
    ["a look-alike of the allowed origin", { "sec-fetch-site": "cross-site", origin: "https://client.example.evil" }, true],
    ["the allowed host over http", { origin: "http://client.example" }, true],
    ["Origin: null", { "sec-fetch-site": "cross-site", origin: "null" }, true],
  ])("%s → refused: %s", (_what, headers, refused) => {
    expect(rule.fromAnotherSite(req(headers))).toBe(refused);
  });
});

describe("with --cors-origin '*'", () => {
  const rule = new CrossSiteRule(createCors("*", ["GET", "POST"]), NO_SITE);
  test("any site may act with credentials of its own, never with the browser's cookies", () => {
    expect(rule.fromAnotherSite(req({ "sec-fetch-site": "cross-site", origin: "https://any.example" }))).toBe(false);
    expect(rule.fromAnotherSite(req({ "sec-fetch-site": "cross-site", origin: "https://any.example", cookie: "svc_session=x" }))).toBe(true);
    expect(rule.fromAnotherSite(req({ origin: "https://any.example", cookie: "svc_session=x" }))).toBe(true);
  });
});

describe("behind a proxy that rewrites Host", () => {
  const proxied = (origin: string, forwarded?: string) =>
    ({ headers: { host: "127.0.0.1:3000", origin, ...(forwarded === undefined ? {} : { "x-forwarded-host": forwarded }) } }) as unknown as IncomingMessage;

  test("--public-url: an Origin of the public URL is this site; others are not", () => {
    const rule = new CrossSiteRule(null, { publicUrl: "https://shop.example.com/api", trustProxy: false });
    expect(rule.fromAnotherSite(proxied("https://shop.example.com"))).toBe(false);
    expect(rule.fromAnotherSite(proxied("https://shop.example.com:443"))).toBe(false);
    expect(rule.fromAnotherSite(proxied("https://evil.example.com"))).toBe(true);
  });

  test("--trust-proxy: the first X-Forwarded-Host is this site; untrusted, the header counts for nothing", () => {
    const trusting = new CrossSiteRule(null, { publicUrl: null, trustProxy: true });
    expect(trusting.fromAnotherSite(proxied("https://shop.example.com", "Shop.example.com, 10.0.0.1"))).toBe(false);
    expect(trusting.fromAnotherSite(proxied("https://evil.example", "shop.example.com"))).toBe(true);
    const untrusting = new CrossSiteRule(null, NO_SITE);
    expect(untrusting.fromAnotherSite(proxied("https://evil.example", "evil.example"))).toBe(true);
  });
});
