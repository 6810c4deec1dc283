// What the "same answers on every backend" tests share: a transcript of calls whose random
// ids are renamed by order of appearance, so two backends' transcripts compare equal, and
// one server per backend, each on a database of its own, stopped and dropped at the end.

import { join } from "node:path";
import { call } from "../../support/http.js";
import { type TestServer, startServer } from "../../support/server.js";
import { type Namespace, createNamespace } from "./databases.js";

export interface Step {
  step: string;
  status: number;
  body: unknown;
}

const ULID_STRING = /"([0-9A-HJKMNP-TV-Z]{26})"/g;

/** Records calls to `api` (`http://host/api/<module>`); `scrub` blanks what differs per run. */
export class Transcript {
  readonly steps: Step[] = [];
  private readonly ids = new Map<string, string>();

  constructor(
    private readonly api: string,
    private readonly scrub: (text: string) => string = (text) => text,
  ) {}

  /** Calls `<api>:<path>` (a GET, or a POST of `json`) and answers the parsed body. */
  readonly record = async (step: string, path: string, json?: unknown) => {
    const r = await call(`${this.api}:${path}`, json === undefined ? {} : { json });
    const text = this.scrub(
      r.text.replace(ULID_STRING, (_, id: string) => {
        if (!this.ids.has(id)) this.ids.set(id, `id${this.ids.size + 1}`);
        return `"${this.ids.get(id)}"`;
      }),
    );
    this.steps.push({ step, status: r.status, body: JSON.parse(text) });
    return r.json;
  };
}

export type Backend = "sqlite" | "postgres" | "mysql";

/** Starts the server built in `dir()` once per backend asked for; `stopAll` ends them all. */
export function serversPerBackend(dir: () => string, sqliteFile: string, namespace: string) {
  const started: { server: TestServer; ns?: Namespace }[] = [];
  return {
    async serve(backend: Backend): Promise<string> {
      const ns = backend === "sqlite" ? undefined : await createNamespace(backend, namespace);
      const db = ns === undefined ? join(dir(), sqliteFile) : ns.url;
      // A server that does not start still leaves no namespace (nor its connection) behind.
      const server = await startServer(dir(), ["--db", db, "--workers", "1"]).catch(async (error: Error) => {
        await ns?.drop();
        throw error;
      });
      started.push({ server, ns });
      return server.url;
    },
    async stopAll(): Promise<void> {
      for (const r of started) {
        await r.server.stop();
        await r.ns?.drop();
      }
    },
  };
}
