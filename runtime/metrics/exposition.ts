// The scrape's text: the Prometheus text format (0.0.4), or OpenMetrics 1.0 when the scraper's
// Accept asks for it. Every answer goes through prom-client's aggregation of the processes'
// metrics as JSON, one process or `--workers N` alike, so the two read the same.

import type * as Prom from "prom-client";
import type { MetricJson } from "./family.js";

export interface Exposition {
  contentType: string;
  body: string;
}

/** Whether `accept` prefers OpenMetrics (Prometheus sends it first when it can read it). */
export function wantsOpenMetrics(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes("application/openmetrics-text");
}

/** One text from the metrics of each process. */
export async function expose(prom: typeof Prom, processes: readonly MetricJson[][], openMetrics: boolean): Promise<Exposition> {
  const type = openMetrics ? prom.Registry.OPENMETRICS_CONTENT_TYPE : prom.Registry.PROMETHEUS_CONTENT_TYPE;
  // OpenMetrics names a counter's family without `_total` and its sample with it; prom-client
  // adds the suffix to the name it is given.
  const input = openMetrics ? processes.map((metrics) => metrics.map(openMetricsName)) : processes;
  const registry = prom.AggregatorRegistry.aggregate([...input]);
  registry.setContentType(type);
  return { contentType: type, body: await registry.metrics() };
}

function openMetricsName(metric: MetricJson): MetricJson {
  return metric.type === "counter" && metric.name.endsWith("_total") ? { ...metric, name: metric.name.slice(0, -"_total".length) } : metric;
}
