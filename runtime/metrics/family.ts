// Series kept as plain numbers on the hot path and read into prom-client's registry only when
// scraped. prom-client's own Counter and Histogram hash their label object on every `inc` and
// `observe` (sorted keys joined into a string); here a request finds its cells by object
// identity (its route table entry, its statement) and adds to numbers, and the labels are
// written once, when the cells are made. A family is registered as a prom-client metric (an
// object with `get()`), so exposition, OpenMetrics and cluster aggregation stay prom-client's.

/** The value prom-client's `getMetricsAsJSON` gives for one metric; what aggregation reads. */
export interface MetricJson {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  values: { labels: Record<string, string | number>; value: number; metricName?: string }[];
  aggregator: "sum" | "max" | "first" | "omit";
}

/** Seconds: from a fast health check to a slow statement. */
export const DURATION_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One label set of a histogram: a count per bucket (not cumulative), the sum and the count. */
export class HistogramCell {
  readonly buckets: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.buckets = new Float64Array(bounds.length);
  }

  /** Hot path: a linear scan over a dozen bounds beats a binary search at this size. */
  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]) {
        this.buckets[i]++;
        return;
      }
    }
  }
}

/** One label set of a counter. */
export class CounterCell {
  value = 0;
  constructor(readonly labels: Readonly<Record<string, string>>) {}
}

/** A registrable metric: what prom-client's Registry#registerMetric and getMetricsAsJSON use of one. */
export interface Family {
  readonly name: string;
  get(): MetricJson | Promise<MetricJson>;
}

export function histogramFamily(name: string, help: string, cells: () => Iterable<HistogramCell>, bounds = DURATION_BUCKETS): Family {
  return {
    name,
    get(): MetricJson {
      const values: MetricJson["values"] = [];
      for (const cell of cells()) {
        let cumulative = 0;
        for (let i = 0; i < bounds.length; i++) {
          cumulative += cell.buckets[i];
          values.push({ labels: { ...cell.labels, le: bounds[i] }, value: cumulative, metricName: `${name}_bucket` });
        }
        values.push({ labels: { ...cell.labels, le: "+Inf" }, value: cell.count, metricName: `${name}_bucket` });
        values.push({ labels: cell.labels, value: cell.sum, metricName: `${name}_sum` });
        values.push({ labels: cell.labels, value: cell.count, metricName: `${name}_count` });
      }
      return { name, help, type: "histogram", values, aggregator: "sum" };
    },
  };
}

export function counterFamily(name: string, help: string, cells: () => Iterable<CounterCell>): Family {
  return {
    name,
    get(): MetricJson {
      const values = [...cells()].map((cell) => ({ labels: cell.labels, value: cell.value }));
      return { name, help, type: "counter", values, aggregator: "sum" };
    },
  };
}

/** A gauge read when scraped: `read` gives its label sets and values then. */
export function gaugeFamily(
  name: string,
  help: string,
  read: () => Iterable<{ labels: Record<string, string>; value: number }> | Promise<Iterable<{ labels: Record<string, string>; value: number }>>,
  aggregator: MetricJson["aggregator"] = "sum",
): Family {
  return {
    name,
    async get(): Promise<MetricJson> {
      const values = [...(await read())];
      return { name, help, type: "gauge", values, aggregator };
    },
  };
}
