// The request series (docs/operations.md, Metrics): by route template (never the raw path, so
// the number of series is bounded by the route table), method and status class, with the
// duration histogram; requests in flight; idempotent replays, rate-limit refusals and webhook
// deliveries, each read off the answer (its status, its Idempotent-Replayed header) at the one
// hook in server.ts, so no other part of the runtime carries a metrics reference.

import type { ServerResponse } from "node:http";
import type { MatchResult } from "../core/router.js";
import { wasReplayed } from "../idempotency/index.js";
import type { EndpointSpec } from "../contract/index.js";
import { CounterCell, counterFamily, DURATION_BUCKETS as DURATION_BOUNDS, type Family, gaugeFamily, HistogramCell, histogramFamily } from "./family.js";

/** The route label of a request the table did not route: not found, a preflight, a 405. */
export const UNMATCHED = "unmatched";
const CLASSES = ["1xx", "1xx", "2xx", "3xx", "4xx", "5xx"];

/** A webhook's endpoint, for the deliveries series. */
export interface WebhookLabels {
  webhook: string;
  provider: string;
}

/** The cells of one route (or own path) and method. */
class RouteCells {
  /** By status / 100; made at a class's first answer. */
  readonly classes: (HistogramCell | undefined)[] = [];
  replays: CounterCell | null = null;
  refusals: CounterCell | null = null;
  /** Another method reaching the same target. */
  next: RouteCells | null = null;

  constructor(
    readonly route: string,
    readonly method: string,
    readonly webhook: WebhookLabels | null,
  ) {}
}

export class HttpSeries {
  inFlight = 0;
  private readonly byTarget = new Map<object, RouteCells>();
  private readonly byPath = new Map<string, RouteCells>();
  private readonly durations: HistogramCell[] = [];
  private readonly replays: CounterCell[] = [];
  private readonly refusals: CounterCell[] = [];
  private readonly deliveries = new Map<string, CounterCell>();

  /**
   * `ownPaths`: paths the server answers before its route table (/health, /metrics, the API
   * docs), labelled as themselves; `webhooks`: the declared webhooks by name (their endpoints
   * take the raw body and bear the webhook's name: webhooks/endpoint.ts).
   */
  constructor(
    private readonly ownPaths: ReadonlySet<string>,
    private readonly webhooks: ReadonlyMap<string, WebhookLabels>,
  ) {}

  /** Hot path: once per request, after its answer; `method` is the request's, HEAD read as GET. */
  answered(match: MatchResult, path: string, method: string, res: ServerResponse, seconds: number): void {
    this.inFlight--;
    const cells = match !== null && "target" in match ? this.ofTarget(match.target, match.path, method) : this.ofPath(path, method);
    const status = res.statusCode;
    const index = status >= 100 && status < 600 ? (status / 100) | 0 : 5;
    let cell = cells.classes[index];
    if (cell === undefined) {
      cell = new HistogramCell({ route: cells.route, method: cells.method, status_class: CLASSES[index] }, DURATION_BOUNDS);
      cells.classes[index] = cell;
      this.durations.push(cell);
    }
    cell.observe(seconds);
    if (status === 429) (cells.refusals ??= this.cell(this.refusals, cells)).value++;
    else if (index === 2 && wasReplayed(res)) (cells.replays ??= this.cell(this.replays, cells)).value++;
    if (cells.webhook !== null) this.delivered(cells.webhook, status);
  }

  families(): Family[] {
    const durations = (): HistogramCell[] => this.durations;
    return [
      histogramFamily("svc_http_request_duration_seconds", "Time from a request's arrival to its answer, by route template, method and status class.", durations),
      counterFamily("svc_http_requests_total", "Requests answered, by route template, method and status class.", () =>
        this.durations.map((cell) => ({ labels: cell.labels, value: cell.count })),
      ),
      gaugeFamily("svc_http_requests_in_flight", "Requests being answered now.", () => [{ labels: {}, value: this.inFlight }]),
      counterFamily("svc_idempotent_replays_total", "Action calls answered with a stored answer (Idempotency-Key), by route.", () => this.replays),
      counterFamily("svc_rate_limit_refusals_total", "Requests refused with 429 by a rate limit or the sign-in throttle, by route.", () => this.refusals),
      counterFamily("svc_webhook_deliveries_total", "Webhook deliveries by webhook, provider and outcome (accepted, refused, rejected, failed).", () =>
        this.deliveries.values(),
      ),
    ];
  }

  private ofTarget(target: object, route: string, method: string): RouteCells {
    let cells = this.byTarget.get(target);
    if (cells === undefined) {
      const endpoint = (target as { endpoint?: EndpointSpec }).endpoint;
      const webhook = endpoint?.rawBody === true ? (this.webhooks.get(endpoint.name) ?? null) : null;
      cells = new RouteCells(route, method, webhook);
      this.byTarget.set(target, cells);
    }
    return this.sameMethod(cells, method);
  }

  private ofPath(path: string, method: string): RouteCells {
    const route = this.ownPaths.has(path) ? path : UNMATCHED;
    let cells = this.byPath.get(route);
    if (cells === undefined) {
      cells = new RouteCells(route, method, null);
      this.byPath.set(route, cells);
    }
    return this.sameMethod(cells, method);
  }

  /** Methods are few (a client's odd one is refused before here), so a short chain. */
  private sameMethod(first: RouteCells, method: string): RouteCells {
    let cells = first;
    while (cells.method !== method) {
      if (cells.next === null) cells.next = new RouteCells(first.route, method, first.webhook);
      cells = cells.next;
    }
    return cells;
  }

  private cell(list: CounterCell[], cells: RouteCells): CounterCell {
    const cell = new CounterCell({ route: cells.route, method: cells.method });
    list.push(cell);
    return cell;
  }

  /** 2xx: handled (or a duplicate answered again); 401: the signature was refused; other 4xx: a bad payload; 5xx: failed. */
  private delivered(webhook: WebhookLabels, status: number): void {
    const outcome = status < 300 ? "accepted" : status === 401 ? "refused" : status < 500 ? "rejected" : "failed";
    const key = `${webhook.webhook}\n${outcome}`;
    let cell = this.deliveries.get(key);
    if (cell === undefined) {
      cell = new CounterCell({ webhook: webhook.webhook, provider: webhook.provider, outcome });
      this.deliveries.set(key, cell);
    }
    cell.value++;
  }
}


