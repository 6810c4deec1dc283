// One scrape answers for every worker of `--workers N` (runtime/cluster): the worker the scrape
// reaches asks the primary, which asks every worker for its metrics as JSON and hands them all
// back; the scraped worker then writes the one text (exposition.ts), summing as prom-client's
// AggregatorRegistry does. The primary needs no prom-client: it only passes messages on.

import cluster, { type Worker } from "node:cluster";
import type { MetricJson } from "./family.js";

/** A worker that does not answer within this is left out of the scrape (it is dying or stuck). */
const GATHER_TIMEOUT_MS = 5000;

/** worker → primary: gather everyone's metrics for scrape `id`. */
interface GatherMessage {
  svc: "metrics-gather";
  id: number;
}
/** primary → worker: send yours for gathering `id`. */
interface CollectMessage {
  svc: "metrics-collect";
  id: number;
}
/** worker → primary: mine, for gathering `id`. */
interface CollectedMessage {
  svc: "metrics-collected";
  id: number;
  metrics: MetricJson[];
}
/** primary → worker: everyone's, for scrape `id`. */
interface GatheredMessage {
  svc: "metrics-gathered";
  id: number;
  processes: MetricJson[][];
}

type Message = Partial<GatherMessage | CollectMessage | CollectedMessage | GatheredMessage>;

/** The primary's side: started by runtime/cluster when metrics are on. */
export class MetricsGatherer {
  private next = 0;
  private readonly pending = new Map<number, { asker: Worker; scrape: number; waiting: Set<number>; processes: MetricJson[][]; timer: NodeJS.Timeout }>();

  /** Every message from a worker passes here; the ones about metrics are answered. */
  onMessage(worker: Worker, message: Message): void {
    if (message?.svc === "metrics-gather" && typeof message.id === "number") this.gather(worker, message.id);
    else if (message?.svc === "metrics-collected" && typeof message.id === "number") this.collected(worker, message.id, message.metrics ?? []);
  }

  /** A worker that exits is not waited for. */
  onExit(worker: Worker): void {
    for (const [id, pending] of this.pending) {
      if (pending.waiting.delete(worker.id) && pending.waiting.size === 0) this.finish(id);
    }
  }

  close(): void {
    for (const id of [...this.pending.keys()]) this.finish(id);
  }

  private gather(asker: Worker, scrape: number): void {
    const id = this.next++;
    const waiting = new Set<number>();
    const request: CollectMessage = { svc: "metrics-collect", id };
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker === undefined || !worker.isConnected()) continue;
      waiting.add(worker.id);
      worker.send(request);
    }
    const timer = setTimeout(() => this.finish(id), GATHER_TIMEOUT_MS);
    this.pending.set(id, { asker, scrape, waiting, processes: [], timer });
    if (waiting.size === 0) this.finish(id);
  }

  private collected(worker: Worker, id: number, metrics: MetricJson[]): void {
    const pending = this.pending.get(id);
    if (pending === undefined || !pending.waiting.delete(worker.id)) return;
    pending.processes.push(metrics);
    if (pending.waiting.size === 0) this.finish(id);
  }

  private finish(id: number): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    const answer: GatheredMessage = { svc: "metrics-gathered", id: pending.scrape, processes: pending.processes };
    if (pending.asker.isConnected()) pending.asker.send(answer);
  }
}

/** A worker's side: answers the primary's collects, and asks it to gather for a scrape. */
export class WorkerMetrics {
  private next = 0;
  private readonly waiting = new Map<number, (processes: MetricJson[][]) => void>();
  private readonly listener = (message: Message): void => {
    if (message?.svc === "metrics-collect" && typeof message.id === "number") void this.collect(message.id);
    else if (message?.svc === "metrics-gathered" && typeof message.id === "number") {
      const done = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      done?.(message.processes ?? []);
    }
  };

  constructor(private readonly own: () => Promise<MetricJson[]>) {
    process.on("message", this.listener);
  }

  /** Every worker's metrics, this one's included; only this one's if the primary does not answer. */
  gather(): Promise<MetricJson[][]> {
    const id = this.next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        void this.own().then((metrics) => resolve([metrics]), () => resolve([]));
      }, 2 * GATHER_TIMEOUT_MS);
      this.waiting.set(id, (processes) => {
        clearTimeout(timer);
        resolve(processes);
      });
      const message: GatherMessage = { svc: "metrics-gather", id };
      process.send!(message);
    });
  }

  close(): void {
    process.off("message", this.listener);
    for (const done of this.waiting.values()) done([]);
    this.waiting.clear();
  }

  private async collect(id: number): Promise<void> {
    const answer: CollectedMessage = { svc: "metrics-collected", id, metrics: await this.own() };
    process.send?.(answer);
  }
}
