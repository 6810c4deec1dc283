// runtime/metrics without a socket: who may scrape (attacked: no token, a wrong one, a
// tampered scheme, a forwarded request from loopback), the series read off an answer (429s,
// webhook outcomes, HEAD as GET), and figures a feature registers.

import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, test } from "../../support/jest.js";
import { HttpError } from "../../../runtime/core/errors.js";
import { ScrapeAccess } from "../../../runtime/metrics/access.js";
import { HttpSeries } from "../../../runtime/metrics/http-series.js";
import { createMetrics } from "../../../runtime/metrics/index.js";
import { BUILTIN_DEFAULTS } from "../../../runtime/start/options.js";
import type { EndpointSpec, ServerSpec } from "../../../runtime/contract/index.js";
import type { MatchResult } from "../../../runtime/core/router.js";

function req(remote: string, headers: Record<string, string> = {}, method = "GET"): IncomingMessage {
  return { method, headers, socket: { remoteAddress: remote } } as unknown as IncomingMessage;
}

function refusal(access: ScrapeAccess, r: IncomingMessage): number | null {
  try {
    access.check(r);
    return null;
  } catch (err) {
    if (err instanceof HttpError) return err.status;
    throw err;
  }
}

describe("who may scrape", () => {
  test("without a token: this machine only, and not through a proxy", () => {
    const access = new ScrapeAccess(null, false);
    expect(refusal(access, req("127.0.0.1"))).toBeNull();
    expect(refusal(access, req("::1"))).toBeNull();
    expect(refusal(access, req("::ffff:127.0.0.1"))).toBeNull();
    expect(refusal(access, req("10.0.0.7"))).toBe(403);
    expect(refusal(access, req("::ffff:10.0.0.7"))).toBe(403);
    // A proxy on this machine forwarding someone else's scrape.
    expect(refusal(access, req("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }))).toBe(403);
    expect(refusal(access, req("127.0.0.1", { forwarded: "for=203.0.113.9" }))).toBe(403);
  });

  test("with a token: other machines bear it, and anything else is a 401", () => {
    const access = new ScrapeAccess("s3cret-token", false);
    expect(refusal(access, req("127.0.0.1"))).toBeNull();
    expect(refusal(access, req("10.0.0.7", { authorization: "Bearer s3cret-token" }))).toBeNull();
    expect(refusal(access, req("10.0.0.7", { authorization: "bearer s3cret-token" }))).toBeNull();
    expect(refusal(access, req("10.0.0.7"))).toBe(401);
    expect(refusal(access, req("10.0.0.7", { authorization: "Bearer s3cret-tokeN" }))).toBe(401);
    expect(refusal(access, req("10.0.0.7", { authorization: "Bearer s3cret-token-and-more" }))).toBe(401);
    expect(refusal(access, req("10.0.0.7", { authorization: "Bearer " }))).toBe(401);
    expect(refusal(access, req("10.0.0.7", { authorization: "Basic s3cret-token" }))).toBe(401);
    expect(refusal(access, req("10.0.0.7", { authorization: "s3cret-token" }))).toBe(401);
    // Forwarded from loopback: the token is still asked for.
    expect(refusal(access, req("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }))).toBe(401);
    expect(refusal(access, req("127.0.0.1", { "x-forwarded-for": "203.0.113.9", authorization: "Bearer s3cret-token" }))).toBeNull();
  });

  test("the separate metrics address is open, unless a token is set", () => {
    expect(refusal(new ScrapeAccess(null, true), req("10.0.0.7", { "x-forwarded-for": "a" }))).toBeNull();
    expect(refusal(new ScrapeAccess("t", true), req("10.0.0.7"))).toBe(401);
  });
});

function answer(status: number, headers: Record<string, string> = {}): ServerResponse {
  return { statusCode: status, hasHeader: (name: string) => Object.hasOwn(headers, name.toLowerCase()) } as unknown as ServerResponse;
}

function valueOf(json: { values: { labels: Record<string, unknown>; value: number }[] }, labels: Record<string, string>): number | undefined {
  return json.values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value;
}

describe("series read off the answer", () => {
  const webhookEndpoint = { kind: "action", name: "shop.stripe_events", rawBody: true } as EndpointSpec;
  const webhookMatch = { target: { kind: "endpoint", endpoint: webhookEndpoint }, params: null, path: "/hooks/stripe", logged: null } as MatchResult;
  const orderMatch = { target: { kind: "endpoint", endpoint: { kind: "action", name: "shop.order" } }, params: null, path: "/orders", logged: null } as MatchResult;

  test("429s are refusals; webhook answers are outcomes; unrouted paths share one label", async () => {
    const series = new HttpSeries(new Set(["/health"]), new Map([["shop.stripe_events", { webhook: "shop.stripe_events", provider: "stripe" }]]));
    const families = new Map(series.families().map((f) => [f.name, f]));
    for (const status of [200, 429, 429, 201]) {
      series.inFlight++;
      series.answered(orderMatch, "/orders", "POST", answer(status), 0.003);
    }
    for (const status of [200, 401, 401, 400, 500]) {
      series.inFlight++;
      series.answered(webhookMatch, "/hooks/stripe", "POST", answer(status), 0.002);
    }
    series.inFlight++;
    series.answered(null, "/health", "GET", answer(200), 0.0001);
    series.inFlight++;
    series.answered(null, "/x/y/z", "GET", answer(404), 0.0001);
    const refusals = await families.get("svc_rate_limit_refusals_total")!.get();
    expect(valueOf(refusals, { route: "/orders", method: "POST" })).toBe(2);
    const deliveries = await families.get("svc_webhook_deliveries_total")!.get();
    expect(valueOf(deliveries, { provider: "stripe", outcome: "accepted" })).toBe(1);
    expect(valueOf(deliveries, { provider: "stripe", outcome: "refused" })).toBe(2);
    expect(valueOf(deliveries, { provider: "stripe", outcome: "rejected" })).toBe(1);
    expect(valueOf(deliveries, { provider: "stripe", outcome: "failed" })).toBe(1);
    const requests = await families.get("svc_http_requests_total")!.get();
    expect(valueOf(requests, { route: "/orders", status_class: "2xx" })).toBe(2);
    expect(valueOf(requests, { route: "/orders", status_class: "4xx" })).toBe(2);
    expect(valueOf(requests, { route: "/health" })).toBe(1);
    expect(valueOf(requests, { route: "unmatched", status_class: "4xx" })).toBe(1);
    expect(valueOf(await families.get("svc_http_requests_in_flight")!.get(), {})).toBe(0);
    // The histogram's buckets are cumulative and end at the count.
    const durations = await families.get("svc_http_request_duration_seconds")!.get();
    expect(valueOf(durations, { route: "/orders", status_class: "2xx", le: 0.0025 } as never)).toBe(0);
    expect(valueOf(durations, { route: "/orders", status_class: "2xx", le: 0.005 } as never)).toBe(2);
    expect(valueOf(durations, { route: "/orders", status_class: "2xx", le: "+Inf" })).toBe(2);
  });
});

describe("figures a feature registers", () => {
  const spec = { name: "shop", version: "1", routes: [] } as unknown as ServerSpec;

  async function scrapeText(metrics: ReturnType<typeof createMetrics>): Promise<string> {
    let body = "";
    const res = { headersSent: false, writeHead: () => res, end: (text: string) => void (body = text) } as unknown as ServerResponse;
    await metrics.scrape(req("127.0.0.1"), res);
    return body;
  }

  test("a gauge is read at every scrape", async () => {
    const metrics = createMetrics(spec, { ...BUILTIN_DEFAULTS, metrics: true }, {});
    let queued = 3;
    metrics.figures.gauge({ name: "svc_jobs_queued", help: "Jobs waiting, by queue.", read: () => [{ labels: { queue: "mail" }, value: queued }] });
    expect(await scrapeText(metrics)).toContain('svc_jobs_queued{queue="mail"} 3');
    queued = 7;
    expect(await scrapeText(metrics)).toContain('svc_jobs_queued{queue="mail"} 7');
    expect(() => metrics.figures.gauge({ name: "svc_jobs_queued", help: "again", read: () => [] })).toThrow(/twice/);
    expect(() => metrics.figures.gauge({ name: "jobs-queued", help: "bad", read: () => [] })).toThrow(/snake case/);
    metrics.close();
  });

  test("a missing metrics token credential stops the start", () => {
    const withToken = { ...spec, credentials: [{ name: "scrape", from: { env: "SCRAPE_TOKEN" }, declared: true }] } as ServerSpec;
    expect(() => createMetrics(withToken, { ...BUILTIN_DEFAULTS, metrics: true, metricsToken: "scrape" }, {})).toThrow(/SCRAPE_TOKEN/);
  });
});
