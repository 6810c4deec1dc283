// Gauges another part of the runtime registers when metrics are on: job queue figures (queued,
// running, failed) are the first use. A feature calls `figures.gauge(…)` once at start with a
// function read at every scrape, so it keeps no metrics state of its own and costs nothing
// between scrapes.

import { type Family, gaugeFamily } from "./family.js";
import { SvcError } from "../core/errors.js";

/** One label set and its value, as read when scraped. */
export interface Figure {
  labels: Record<string, string>;
  value: number;
}

export interface FigureGauge {
  /** `svc_…`, as Prometheus names go: snake case, the unit last (`svc_jobs_queued`). */
  name: string;
  help: string;
  /** Read at every scrape; may be async (a count from the database). */
  read(): Iterable<Figure> | Promise<Iterable<Figure>>;
  /** Across `--workers`: the figures of one process each are summed, or the largest is taken (one shared queue seen by every worker). Default sum. */
  across?: "sum" | "max";
}

/** The registration API: what `Metrics.figures` is, and all a feature sees of metrics. */
export class Figures {
  private readonly gauges = new Map<string, Family>();

  gauge(gauge: FigureGauge): void {
    if (!/^svc_[a-z0-9_]+$/.test(gauge.name)) throw new SvcError("SVC_ERR_INTERNAL", `a figure's name must be svc_ and snake case: ${gauge.name}`);
    if (this.gauges.has(gauge.name)) throw new SvcError("SVC_ERR_INTERNAL", `the figure ${gauge.name} is registered twice`);
    this.gauges.set(gauge.name, gaugeFamily(gauge.name, gauge.help, () => gauge.read(), gauge.across ?? "sum"));
  }

  families(): Family[] {
    return [...this.gauges.values()];
  }
}
