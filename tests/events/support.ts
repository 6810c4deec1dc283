// The outbox tests' pieces: a receiver on 127.0.0.1 that answers deliveries as a test
// scripts and tells it when each arrives, and the test project built with that receiver's
// URL in its svc.toml.

import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { repoRoot } from "../support/paths.js";
import { buildTo, tmpDir } from "../support/server.js";

export const PROJECT = join(repoRoot, "tests", "events", "projects", "outbox");
/** The subscriber's secret as svc.toml's credential holds it: Svix's documentation key. */
export const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
export const EVENTS_ENV: NodeJS.ProcessEnv = { TEST_CRM_HOOK: SECRET };

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A subscriber. `answer(n)` gives the status of the n-th delivery (from 1), or null to
 * never answer it (a hung subscriber). `nth(i)` resolves with the i-th delivery once it has arrived.
 */
export class Receiver {
  readonly deliveries: Delivery[] = [];
  private waiting: ((d: Delivery) => void)[] = [];
  private readonly held = new Set<import("node:http").ServerResponse>();
  private server: Server | null = null;
  port = 0;

  constructor(private readonly answer: (n: number) => number | null) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const d = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
        this.deliveries.push(d);
        const status = this.answer(this.deliveries.length);
        if (status === null) this.held.add(res);
        else res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "no");
        const waiting = this.waiting;
        this.waiting = [];
        for (const w of waiting) w(d);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** The delivery at `index` (from 0), once it has arrived. */
  async nth(index: number): Promise<Delivery> {
    while (this.deliveries.length <= index) await new Promise<Delivery>((resolve) => this.waiting.push(resolve));
    return this.deliveries[index];
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** The test project built with its subscriber's URL pointing at `port`; `moreToml` is added to its svc.toml. */
export async function buildFor(port: number, moreToml = ""): Promise<string> {
  const project = tmpDir("events-project-");
  cpSync(PROJECT, project, { recursive: true });
  const toml = join(project, "svc.toml");
  writeFileSync(toml, `${readFileSync(toml, "utf8")}${moreToml}`.replaceAll("RECEIVER", String(port)));
  return buildTo({ mode: "project", dir: project });
}
