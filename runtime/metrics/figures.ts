// Gauges another part of the runtime registers when metrics are on: job queue figures (queued,
// running, failed) are the first use. A feature calls `figures.gauge(…)` once at start with a
// function read at every scrape, so it keeps no metrics state of its own and costs nothing
// between scrapes.

import { DURATION_BUCKETS, type Family, gaugeFamily, HistogramCell, histogramFamily } from "./family.js";
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

/** A histogram a feature observes itself: a cell per label set, each observed on its hot path. */
export interface FigureHistogram {
  /** The cell of `labels`, made once (at start) and kept by the feature. */
  cell(labels: Record<string, string>): HistogramCell;
}

/** The registration API: what `Metrics.figures` is, and all a feature sees of metrics. */
export class Figures {
  private readonly registered = new Map<string, Family>();

  gauge(gauge: FigureGauge): void {
    this.add(gauge.name, gaugeFamily(gauge.name, gauge.help, () => gauge.read(), gauge.across ?? "sum"));
  }

  /** Seconds by default (`…_seconds`); summed across `--workers`, bucket by bucket. */
  histogram(name: string, help: string, bounds: readonly number[] = DURATION_BUCKETS): FigureHistogram {
    const cells: HistogramCell[] = [];
    this.add(name, histogramFamily(name, help, () => cells, bounds));
    return {
      cell(labels) {
        const cell = new HistogramCell(labels, bounds);
        cells.push(cell);
        return cell;
      },
    };
  }

  private add(name: string, family: Family): void {
    if (!/^svc_[a-z0-9_]+$/.test(name)) throw new SvcError("SVC_ERR_INTERNAL", `a figure's name must be svc_ and snake case: ${name}`);
    if (this.registered.has(name)) throw new SvcError("SVC_ERR_INTERNAL", `the figure ${name} is registered twice`);
    this.registered.set(name, family);
  }

  families(): Family[] {
    return [...this.registered.values()];
  }
}
