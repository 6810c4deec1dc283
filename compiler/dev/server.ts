// `svc dev`: one node:http server that stays up while the project changes under it. Each
// save rebuilds in this process and swaps the request handler; connections stay open and
// the in-memory database is kept when the schema change allows. Builds share a BuildCache,
// so a save re-parses and re-checks only the files and statements it changed. A build
// that fails leaves the last good version serving: its HTML pages carry an overlay with
// the diagnostics, and API calls get a 500 envelope naming them until the next good build.

import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { Answer } from "../../runtime/core/answer/answer.js";
import { answerClientError } from "../../runtime/core/client-errors.js";
import { ENVELOPE_ERRORS, type ErrorAnswers } from "../../runtime/core/answer/error-answers.js";
import { LiveReload } from "./live-reload.js";
import { injectIntoHtml, overlayHtml, reloadScriptTag } from "./overlay.js";
import { createLogger, type Logger, type LogSink } from "../../runtime/core/log.js";
import { httpServerOptions } from "../../runtime/core/timeouts.js";
import type { Database, LogLevel, ServerOptions } from "../../runtime/contract/index.js";
import type { DiscoverTarget } from "../project/discover.js";
import { type BuildFailure, buildFailure, errorEnvelope, errorPage } from "./failure.js";
import {
  type Generation,
  RUNTIME_URL,
  devOptions,
  importSpec,
  makeGeneration,
  migrateOrReset,
  startGenerationJobs,
  stopJobs,
} from "./generation.js";
import { BuildCache, describeReuse } from "./build-cache.js";
import { build, formatDiagnostics } from "../index.js";
import { type Watcher, onlyMainArea, watchProject } from "./watch.js";
import { createTracing, type Tracing } from "../../runtime/traces/index.js";
import { tracingConfigured } from "../../runtime/traces/config.js";
import { RecentTraces } from "../../runtime/traces/recent.js";
import { answerTraces } from "./traces.js";

/** Builds run after start to warm the compiler up (see warmUp). */
const WARM_UP_BUILDS = 3;

export interface DevServerOptions {
  target: DiscoverTarget;
  /** 0 picks a free port. Default 3000. */
  port?: number;
  /** Default 127.0.0.1: a dev server is for this machine. */
  host?: string;
  logLevel?: LogLevel;
  /** Where the dev server's own lines go (rebuilds, diagnostics). */
  say?: (line: string) => void;
  /** Where request logs go (JSON lines); default stdout. */
  logSink?: LogSink;
  /** Watch the project folder; tests may drive `rebuild` themselves. Default true. */
  watch?: boolean;
}

export interface RebuildResult {
  ok: boolean;
  ms: number;
  /** Set when a destructive schema change reset the in-memory data. */
  reset: string | null;
}

export class DevServer {
  readonly url: string;
  readonly port: number;
  private current: Generation | null = null;

  /** How the build being served writes its errors (svc.toml [errors]); the envelope while none serves. */
  errors(): ErrorAnswers {
    return this.current?.handler.errors ?? ENVELOPE_ERRORS;
  }
  private failure: BuildFailure | null = null;
  private db: Database | null = null;
  private nextId = 1;
  private building: Promise<RebuildResult> | null = null;
  private again: string[] | null = null;
  private watcher: Watcher | null = null;
  private closed = false;
  /** The project root as the last build resolved it. */
  private rootPath: string | null = null;
  /** What one build leaves for the next: ASTs, SQL checks, templates, page.jq (keyed by content). */
  private readonly cache = new BuildCache();
  /** The last requests' spans, for /_svc/traces; also exported when OTEL_* says where. */
  private readonly recent = new RecentTraces();
  private tracing: Tracing | null = null;

  private constructor(
    private readonly options: DevServerOptions,
    private readonly http: Server,
    private readonly live: LiveReload,
    private readonly log: Logger,
    private readonly say: (line: string) => void,
  ) {
    const address = http.address() as AddressInfo;
    this.port = address.port;
    const host = address.address.includes(":") ? `[${address.address}]` : address.address;
    this.url = `http://${host === "127.0.0.1" ? "localhost" : host}:${address.port}`;
  }

  /** Builds once, listens (even when that build fails: the errors are then what it serves), and watches. */
  static async start(options: DevServerOptions): Promise<DevServer> {
    const say = options.say ?? ((line: string) => process.stderr.write(`${line}\n`));
    const log = createLogger(options.logLevel ?? "info", options.logSink);
    const live = new LiveReload();
    let dev: DevServer | null = null;
    const notYet = (res: ServerResponse): void => {
      res.writeHead(503, { "Content-Type": "application/json", "Retry-After": "1" });
      res.end(JSON.stringify({ ok: false, error: "svc dev is starting" }));
    };
    const http = createHttpServer({ ...httpServerOptions(30_000), ServerResponse: Answer }, (req, res) =>
      dev === null ? notYet(res) : dev.dispatch(req, res),
    );
    http.on("checkContinue", (req: IncomingMessage, res: Answer) =>
      dev === null ? notYet(res) : dev.dispatch(req, res, "checkContinue"),
    );
    // Node's refusals take the error shape of the build being served ([errors]), the envelope before the first.
    http.on("clientError", (err: Error, socket) => answerClientError(err, socket, log, 30_000, dev?.errors() ?? ENVELOPE_ERRORS));
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(options.port ?? 3000, options.host ?? "127.0.0.1", () => {
        http.off("error", reject);
        resolve();
      });
    });
    const started = new DevServer(options, http, live, log, say);
    dev = started;
    // Watching starts first, so a save during the first build is not missed.
    if (options.watch !== false) {
      const root = resolve(options.target.dir);
      started.watcher = watchProject(
        root,
        (paths) => void started.rebuild(paths),
        (err) => say(`svc dev: stopped watching ${root}: ${err.message}`),
      );
    }
    await started.rebuild([]);
    started.warmUp();
    say(`svc dev: serving ${started.url} (in-memory SQLite; Ctrl-C stops)`);
    return started;
  }

  /** The version being served: for tests and the bench. */
  get generation(): number {
    return this.current?.id ?? 0;
  }

  /** Resolves once no build (or warm-up) is under way. */
  async idle(): Promise<void> {
    while (this.building !== null) await this.building.catch(() => undefined);
  }

  /** Open pages listening for reloads. */
  get listeners(): number {
    return this.live.size;
  }

  get error(): BuildFailure | null {
    return this.failure;
  }

  /**
   * Rebuilds and swaps. Saves that arrive during a build are folded into one more build
   * after it, so the served version always ends up matching the files on disk.
   */
  rebuild(changed: string[]): Promise<RebuildResult> {
    if (this.building !== null) {
      this.again = [...(this.again ?? []), ...changed];
      return this.building;
    }
    return this.serialize(() => this.buildOnce(changed));
  }

  /** Runs `first`, then one build for whatever was saved meanwhile; one at a time. */
  private serialize(first: () => Promise<RebuildResult>): Promise<RebuildResult> {
    const run = async (): Promise<RebuildResult> => {
      let result = await first();
      while (this.again !== null && !this.closed) {
        const paths = this.again;
        this.again = null;
        result = await this.buildOnce(paths);
      }
      return result;
    };
    this.building = run().finally(() => {
      this.building = null;
    });
    return this.building;
  }

  /**
   * A few builds whose output is thrown away, right after start: the compiler's first runs
   * in a process are several times slower than later ones (the JIT has not compiled it
   * yet), and without this the first saves would pay for that. A save arriving meanwhile
   * waits for at most the build under way. They run without the cache, on purpose: a
   * cached build would skip the parser and the SQL checker, the very code a save then runs.
   */
  private warmUp(): void {
    if (this.building !== null || this.current === null) return;
    void this.serialize(async () => {
      const started = performance.now();
      for (let i = 0; i < WARM_UP_BUILDS && this.again === null && !this.closed; i++) {
        await build(this.options.target, { runtimeImport: RUNTIME_URL, pretty: false }).catch(() => undefined);
        // Lets requests and watcher events in between builds.
        await new Promise((r) => setImmediate(r));
      }
      return { ok: true, ms: performance.now() - started, reset: null };
    });
  }

  private rootOf(): string {
    return this.rootPath ?? this.options.target.dir;
  }

  private async buildOnce(changed: string[]): Promise<RebuildResult> {
    const started = performance.now();
    const what = changed.length === 0 ? "" : ` (${changed.join(", ")})`;
    let result;
    try {
      result = await build(this.options.target, { runtimeImport: RUNTIME_URL, pretty: false, cache: this.cache });
    } catch (err) {
      return this.fail(buildFailure.fromError(err, "the compiler failed", this.rootOf()), started);
    }
    this.rootPath = result.root;
    const js = result.files.find((f) => f.path === "server.js");
    if (js === undefined) return this.fail(buildFailure.fromDiagnostics(result), started);
    if (result.diagnostics.length > 0) this.say(formatDiagnostics(result));

    let reset: string | null = null;
    let next: Generation;
    let options: ServerOptions;
    try {
      const spec = await importSpec(result.files, result.root);
      // Built in memory: no openapi.json beside the module for --openapi to read.
      spec.openapi = String(result.files.find((f) => f.path === "openapi.json")?.contents ?? "{}");
      const migrated = await migrateOrReset(spec, this.db, () => this.openMemory());
      reset = migrated.reset;
      options = devOptions(spec, this.options.logLevel);
      try {
        // Every request sampled: the trace view shows them all.
        this.tracing ??= createTracing(spec, this.log, [this.recent], tracingConfigured(process.env), true);
        next = makeGeneration(this.nextId, spec, migrated.db, options, this.log, () => this.http.listening, this.tracing);
      } catch (err) {
        if (migrated.db !== this.db) await migrated.db.close().catch(() => undefined);
        throw err;
      }
    } catch (err) {
      return this.fail(buildFailure.fromError(err, "the project cannot be served", result.root), started);
    }
    this.nextId++;
    const previous = this.current;
    const previousDb = this.db;
    // Pages showing the error overlay reload whole: a re-render of the main area would keep it.
    const recovered = this.failure !== null;
    this.current = next;
    this.db = next.db;
    this.failure = null;
    if (previous !== null) {
      // One generation runs jobs at a time: the old one's stop before its database may close.
      await stopJobs(previous).catch((err: unknown) => this.log.error("stopping the jobs failed", { error: String(err) }));
      this.retire(previous, previousDb !== next.db ? previousDb : null);
    }
    await startGenerationJobs(next, options, this.log).catch((err: unknown) => this.log.error("starting the jobs failed", { error: String(err) }));
    const ms = performance.now() - started;
    if (reset !== null) {
      this.say(`svc dev: the schema change is not additive; the in-memory data was reset:\n${reset}`);
      this.log.warn("the schema change is not additive: the in-memory data was reset", { reason: reset });
    }
    if (previous === null) this.say(`svc dev: built ${result.model?.name ?? "the project"} in ${ms.toFixed(0)} ms`);
    else {
      const reuse = describeReuse(this.cache.stats);
      this.say(`svc dev: reloaded${what} in ${ms.toFixed(0)} ms${reuse === "" ? "" : ` (${reuse})`}`);
    }
    this.live.reload(changed.join(", "), !recovered && onlyMainArea(changed));
    return { ok: true, ms, reset };
  }

  private fail(failure: BuildFailure, started: number): RebuildResult {
    this.failure = failure;
    this.say(failure.text);
    this.say(
      this.current === null
        ? `svc dev: ${failure.headline}; serving the errors until it can`
        : `svc dev: ${failure.headline}; still serving the last good version`,
    );
    // Open pages reload to show the overlay.
    this.live.reload("build error");
    return { ok: false, ms: performance.now() - started, reset: null };
  }

  private async openMemory(): Promise<Database> {
    const { openDatabase } = await import("../../runtime/db/index.js");
    return openDatabase({ backend: "sqlite", db: ":memory:" });
  }

  /** The old handler finishes what it started; its database closes when it was replaced. */
  private retire(gen: Generation, replacedDb: Database | null): void {
    gen.retired = true;
    const dispose = (): void => {
      // Stops the handler's write-deadline timer.
      gen.handler.close();
      if (replacedDb !== null) void replacedDb.close().catch(() => undefined);
    };
    if (gen.inFlight === 0) dispose();
    else gen.dispose = dispose;
  }

  private dispatch(req: IncomingMessage, res: Answer, event: "request" | "checkContinue" = "request"): void {
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    const path = q === -1 ? target : target.slice(0, q);
    if (this.live.handle(req, res, path)) return;
    if (answerTraces(res, path, this.recent)) return;
    const gen = this.current;
    const failure = this.failure;
    if (failure !== null && (gen === null || this.isApi(gen, req.method ?? "GET", path))) {
      if (gen === null && /text\/html/.test(req.headers.accept ?? "")) errorPage(res, failure, reloadScriptTag());
      else errorEnvelope(res, failure);
      return;
    }
    if (gen === null) {
      res.writeHead(503, { "Content-Type": "application/json", "Retry-After": "1" });
      res.end(JSON.stringify({ ok: false, error: "svc dev is still building the project" }));
      return;
    }
    injectIntoHtml(
      res,
      () => reloadScriptTag() + (this.failure === null ? "" : overlayHtml(this.failure.headline, this.failure.text)),
    );
    gen.inFlight++;
    res.once("close", () => {
      gen.inFlight--;
      if (gen.retired && gen.inFlight === 0) gen.dispose?.();
    });
    if (event === "checkContinue") gen.handler.handleContinue(req, res);
    else void gen.handler.handle(req, res);
  }

  /** Module endpoints, declared routes, webhooks and route files under `/api/` answer in JSON; pages and files do not. */
  private isApi(gen: Generation, method: string, path: string): boolean {
    if (path.startsWith("/api/")) return true;
    try {
      const found = gen.handler.router.match(method === "HEAD" ? "GET" : method, path);
      return found !== null && ("allow" in found || found.target.kind === "endpoint");
    } catch {
      // A broken %-escape: the handler answers it with a 400 envelope.
      return true;
    }
  }

  /** Stops watching, ends the event streams, lets in-flight requests finish, closes the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watcher?.close();
    this.live.close();
    if (this.building !== null) await this.building.catch(() => undefined);
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeIdleConnections();
      // Dev has no 30 s grace: whatever is still open after a moment is cut.
      setTimeout(() => this.http.closeAllConnections(), 2_000).unref();
    });
    if (this.current !== null) {
      await stopJobs(this.current).catch(() => undefined);
      this.current.handler.close();
    }
    await this.db?.close().catch(() => undefined);
    await this.tracing?.close();
    this.cache.dispose();
    this.log.flush();
  }
}
