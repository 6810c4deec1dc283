// The request handler: request id → write deadline → CORS → shutdown and framing checks →
// /health → router → cross-site rule → arguments → endpoint → envelope. Every failure becomes
// an envelope (answer/envelope.ts) and the server keeps serving. Requests Node's parser refuses never
// get here (client-errors.ts); timeouts and keep-alive are in timeouts.ts.
//
// Where arguments come from: GET and DELETE take the query string (text); POST and PUT
// take the body (JSON, or a form as text); a declared route's path parameters join them
// (path-params.ts).

import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Answer, answerClass, answerError, databaseJson, type ErrorAnswers, errorAnswers, RequestView, requestIdOf } from "./answer/index.js";
import { sendGeneratedJson, sendData, sendDatabaseJson, sendOk, sendShaped, sendStream } from "./answer/index.js";
import { performance } from "node:perf_hooks";
import { Identity } from "../auth/index.js";
import { readBody, readRawBody } from "./body.js";
import { isMultipart } from "../uploads/index.js";
import { Uploads } from "../uploads/index.js";
import { answerClientError, answerConnect } from "./client-errors.js";
import { createCors } from "./cors.js";
import { resolveCredentials } from "./credentials.js";
import { HttpError, SvcError } from "./errors.js";
import { framingProblem } from "./framing.js";
import { HEALTH_PATH, healthInfo, sendHealth } from "./health.js";
import { lingerIfUnread } from "./linger.js";
import { requestIdFrom, type Logger } from "./log.js";
import { type LoggedPath, loggedPath } from "./request-line.js";
import { newArgs, parseQueryString } from "./query-string.js";
import { mergePathParams } from "./path-params.js";
import type { RespondInput, ShapedAnswer, SiteOptions } from "../contract/index.js";
import { type BoundTarget, type MatchResult, Router } from "./router.js";
import { httpServerOptions, WriteDeadlines } from "./timeouts.js";
import { callEndpoint, IDEMPOTENCY_HEADER, IdempotencyStore, idempotencyStatements, keptKey, markReplayed } from "../idempotency/index.js";
import { afterCall, outboxHealth, startOutbox } from "../outbox/index.js";
import { trackConnections } from "./connections.js";
import type { CallContext, CallInput, Caller, Database, EndpointSpec, RouteSpec, RouteTarget, ServerOptions, ServerSpec } from "../contract/index.js";
import { WebhookReply, webhookEndpoints } from "../webhooks/index.js";
import { App, blockAnswersEnvelope } from "../pages/index.js";
import type { Observer } from "../observe/index.js";
import { CrossSiteRule, crossSiteRefusal } from "./cross-site.js";
import { unpolyAssets } from "../assets/index.js";
import { apiDocs } from "../assets/index.js";
import { allowedAt, answerOptions, routedMethods } from "./allow.js";
import { sendAsset } from "../assets/index.js";
import { createLimiter, settled } from "../limits/index.js";

const CLOSE = { Connection: "close" } as const;
const HEALTH_LOGGED = loggedPath(HEALTH_PATH);
const ASSET: RouteTarget = { kind: "asset" };

/** A webhook's entry, bound to the endpoint that verifies its deliveries. */
function bindWebhook(target: RouteTarget, webhooks: ReadonlyMap<string, EndpointSpec>): BoundTarget {
  if (target.kind !== "webhook") return target;
  const endpoint = webhooks.get(target.name);
  if (endpoint === undefined) throw new SvcError("SVC_ERR_INTERNAL", `the route table names webhook ${target.name}, which the spec does not declare`);
  return { kind: "endpoint", endpoint };
}

/** What `createHandler` makes: the request handler of one server, apart from its socket. */
export interface Handler {
  /** Answers one request; never rejects (every error becomes an answer). */
  handle(req: IncomingMessage, res: Answer): Promise<void>;
  /** `Expect: 100-continue`: refuses a body over the limit before the client sends it, else continues. */
  handleContinue(req: IncomingMessage, res: Answer): void;
  /** The route table, matched once per request. */
  readonly router: Router;
  /** Responses still being made or sent, for a graceful shutdown. */
  readonly deadlines: WriteDeadlines;
  /** Stops the write-deadline timer and background work: the handler takes no more requests. */
  close(): void;
  /** A graceful stop of background work (the outbox's deliveries), before the database closes. */
  stopBackground(): Promise<void>;
  /** How this server's errors look (svc.toml [errors]), also for requests Node refuses. */
  readonly errors: ErrorAnswers;
}

export interface HandlerHooks {
  /**
   * Whether the server still takes requests: once it does not (a shutdown has begun), a
   * request on a kept-alive connection gets a 503 and responses close their connection.
   */
  accepting: () => boolean;
  /** `--metrics` and OTEL_* traces (runtime/observe): null or absent when both are off. */
  observer?: Observer | null;
}

/**
 * The request handler for `spec` on `db`, apart from any `node:http` server: createServer
 * puts it behind a socket, and `svc dev` calls it for the build it currently serves.
 * Throws StartupError (e.g. a missing credential).
 */
export function createHandler(spec: ServerSpec, db: Database, options: ServerOptions, log: Logger, hooks: HandlerHooks): Handler {
  // Credentials are read once, here, at start: one that is missing is a StartupError.
  const credentials = resolveCredentials(spec.credentials ?? [], process.env);
  // Who is calling: bearer lists, JWT keys (checked here, at start) and sessions.
  const site: SiteOptions = { publicUrl: options.publicUrl ?? null, trustProxy: options.trustProxy === true };
  const identity = spec.auth === undefined ? null : new Identity(spec.auth, credentials, db, { site, log });
  // A webhook's entry in the route table becomes its endpoint, which checks signatures with its secret.
  // Spans of features below the request (pages, webhooks) when traced; null otherwise.
  const spans = hooks.observer?.tracing ?? null;
  const webhooks = webhookEndpoints(spec.webhooks ?? [], credentials, log, spans);
  // svc's own assets (Unpoly) for pages: served below /_svc/, where no page or public file can be.
  const unpoly = spec.app === undefined ? null : unpolyAssets();
  const own: RouteSpec[] = unpoly === null ? [] : [...unpoly.byPath.keys()].map((path) => ({ method: "GET", path, target: ASSET }));
  const router = new Router(own.length === 0 ? spec.routes : [...spec.routes, ...own], (target) => bindWebhook(target, webhooks));
  const health = healthInfo(spec.version);
  const maxBodySize = options.maxBodySize;
  // `file` arguments and answers (runtime/uploads); null when nothing takes or stores a file.
  const uploads = spec.uploads === undefined ? null : new Uploads(spec.uploads, db);
  const errorShape = spec.errors ?? null;
  // The one writer of error answers: the declared shape or the envelope, decided here.
  const errors = errorAnswers(errorShape, options.serverHeader);
  const deadlines = new WriteDeadlines(options.writeTimeoutMs, (res) =>
    onWriteTimeout(res, log, options.writeTimeoutMs, errors),
  );
  const accepting = hooks.accepting;
  const traceRequests = log.enabled("trace");
  // Action calls with an Idempotency-Key (runtime/idempotency); null when no action is called over HTTP.
  const keys = spec.idempotency === true ? new IdempotencyStore(idempotencyStatements, db, log) : null;
  // Declared rate limits and the sign-in throttle (runtime/limits); null when nothing is limited.
  const limiter = createLimiter(spec, db, options, log);
  // Events' delivery loop (runtime/outbox): subscribers' secrets are keys from here on.
  const outbox = spec.events === undefined ? null : startOutbox(spec.events, db, credentials, log, spans);
  if (outbox !== null) health.detail = () => outboxHealth(outbox.depth());
  // Route files, pages and public/ (runtime/pages): their templates are parsed here, at start.
  const app =
    spec.app === undefined || unpoly === null
      ? null
      : new App(spec.app, router, unpoly, { db, log, maxBodySize, keys, site, errors: errorShape, uploads, spans });
  // A preflight allows every method something here answers (docs/language.md §3).
  const cors = createCors(options.corsOrigin, routedMethods(router));
  // Requests from other sites may not change anything, unless CORS names their origin (cross-site.ts).
  const crossSite = new CrossSiteRule(cors, site);
  // `--openapi`: /openapi.json and the API reference page (read here, at start).
  const docs = options.openapi === true ? apiDocs(spec) : null;
  // Metrics (/metrics, each request counted) and a span per request (runtime/observe); null when off.
  const observer = hooks.observer ?? null;

  // Hot path: every request runs through here; keep it free of per-request closures,
  // URL objects and regexes.
  async function handle(req: IncomingMessage, res: Answer): Promise<void> {
    const started = performance.now();
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    // Written with the head (answer.ts).
    res.requestId = requestId;
    deadlines.add(res, started);
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    const path = q === -1 ? target : target.slice(0, q);
    // HEAD is answered like GET; Node leaves the body out.
    const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
    const span = observer === null ? null : observer.started(req, path, requestId, started);
    const rdb = span === null ? db : db.under!(span); // traced: the request's statements are its span's children
    // At trace, a request that never gets its "request" line (a crash, a kill) still shows.
    if (traceRequests) log.trace("request received", { request_id: requestId, method: req.method, path });
    // What the request matched, for the error answer: an envelope target's errors keep the envelope.
    let matched: BoundTarget | null = null;
    // The path as the log line writes it, when it is one made at start (see Router).
    let logged: LoggedPath | null = null;
    let route: MatchResult = null;
    try {
      // Once shutdown has begun, a request arriving on a kept-alive connection is not
      // started: the client learns to retry elsewhere, and the connection closes.
      if (!accepting()) throw new HttpError(503, "the server is shutting down", { code: "SVC_ERR_SHUTTING_DOWN", headers: CLOSE });
      const framing = framingProblem(req);
      if (framing !== null) throw framing;
      if (cors !== null && cors.handle(req, res)) {
        // An allowed CORS preflight, answered.
      } else if (method === "OPTIONS") {
        answerOptions(res, allowedAt(path, router));
      } else if (path === HEALTH_PATH) {
        logged = HEALTH_LOGGED;
        if (method !== "GET") throw new HttpError(405, "method not allowed", { code: "SVC_ERR_METHOD_NOT_ALLOWED", headers: { Allow: "GET" } });
        if (closesAfter(accepting, deadlines, res)) res.setHeader("Connection", "close");
        const answered = sendHealth(res, db, health, log);
        if (answered !== undefined) await answered;
      } else if (observer !== null && observer.serves(path)) {
        await observer.scrape(req, res);
      } else if (docs !== null && docs.has(path)) {
        if (method !== "GET") throw new HttpError(405, "method not allowed", { code: "SVC_ERR_METHOD_NOT_ALLOWED", headers: { Allow: "GET" } });
        if (closesAfter(accepting, deadlines, res)) res.setHeader("Connection", "close");
        sendAsset(req, res, docs.get(path)!);
      } else {
        const match = router.match(method, path);
        route = match;
        if (match !== null && "path" in match && match.path === path) logged = match.logged;
        if (match === null) {
          if (app === null || !app.answersNotFound(req, method)) throw new HttpError(404, "not found", { code: "SVC_ERR_NOT_FOUND" });
          if (closesAfter(accepting, deadlines, res)) res.setHeader("Connection", "close");
          app.sendNotFound(res);
        } else if ("allow" in match) {
          throw new HttpError(405, "method not allowed", { code: "SVC_ERR_METHOD_NOT_ALLOWED", headers: { Allow: match.allow.join(", ") } });
        } else if (crossSite.refuses(req, method, match.target)) {
          // The one cross-site rule, for every kind of target, before anything it reaches runs.
          matched = match.target;
          throw crossSiteRefusal(method);
        } else if (match.target.kind !== "endpoint") {
          if (app === null) throw new HttpError(404, "not found", { code: "SVC_ERR_NOT_FOUND" });
          matched = match.target;
          if (closesAfter(accepting, deadlines, res)) res.setHeader("Connection", "close");
          const rawQuery = q === -1 ? "" : target.slice(q + 1);
          // The app resolves the caller itself, for route files and pages only: files need none.
          const appCtx: CallContext = { req, requestId, caller: null, identity, limits: limiter, outbox, span: span ?? undefined };
          // A route file's or a page form's action that emitted has committed by now: its events go out.
          await app.handle(req, res, method, path, { target: match.target, params: match.params }, rawQuery, appCtx).finally(() => afterCall(appCtx));
        } else {
          const endpoint = match.target.endpoint;
          const respond = match.target.respond;
          // A token or a session in the answer: no cache may keep it (docs/auth.md), whatever comes of the call.
          if (endpoint.noStore === true) res.setHeader("Cache-Control", "no-store");
          matched = match.target;
          // Only actions take a key (webhooks' deliveries have ids; a query ignores it), and one that handles credentials drops it.
          const key =
            keys !== null && endpoint.kind === "action" && req.headers[IDEMPOTENCY_HEADER] !== undefined && endpoint.rawBody !== true
              ? keptKey(req, endpoint.credentials !== true)
              : null;
          const input: CallInput =
            endpoint.rawBody === true
              ? { args: newArgs(), text: false, raw: await readRawBody(req, maxBodySize) }
              : method === "POST" || method === "PUT" || method === "PATCH"
              ? await readBody(req, maxBodySize, uploads !== null && endpoint.files !== undefined ? { uploads, accepts: endpoint.files } : null)
              : { args: q === -1 ? newArgs() : parseQueryString(target.slice(q + 1)), text: true };
          // Answered meanwhile (the read or write timeout): the endpoint must not run.
          if (res.headersSent) throw new HttpError(res.statusCode, "already answered", { code: "SVC_ERR_INTERNAL" });
          if (match.params !== null) mergePathParams(input, match.params);
          // Once per request, before the endpoint: a refused credential is a 401 whatever the
          // endpoint. Webhooks prove themselves by signature and are not asked.
          let caller: Caller | null = null;
          if (identity !== null && endpoint.rawBody !== true) {
            const resolved = identity.resolve(req, res, span ?? undefined);
            caller = resolved instanceof Promise ? await resolved : resolved;
          }
          const ctx: CallContext = { req, requestId, caller, identity, limits: limiter, outbox, span: span ?? undefined };
          // Counted before the endpoint runs and outside its transaction: a request that fails still counts.
          if (limiter !== null) await limiter.enforceAll(match.target.limits, endpoint.limits, input, ctx, res);
          if (key !== null && keys !== null) {
            // A route with `respond` stores its whole answer (status, body, headers) and replays it.
            const shape = respond === undefined ? undefined : (result: unknown) => respond(result, respondInput(match.params, req, site));
            const answer = await settled(ctx, callEndpoint(keys, key, endpoint, rdb, input, ctx, method, path, shape));
            afterCall(ctx);
            if (!res.headersSent) {
              if (closesAfter(accepting, deadlines, res)) res.setHeader("Connection", "close");
              if (ctx.cookies !== undefined) res.setHeader("Set-Cookie", ctx.cookies);
              if (answer.replayed) markReplayed(res);
              if (shape !== undefined) sendShaped(res, JSON.parse(answer.body) as ShapedAnswer);
              else sendData(res, answer.body, answer.status);
            }
          } else if (match.target.stream !== undefined) {
            const head = respond!(null, respondInput(match.params, req, site));
            await sendStream(res, rdb, match.target.stream, input, head, { bodyless: req.method === "HEAD", close: closesAfter(accepting, deadlines, res) });
          } else {
            // A query on SQLite answers at once: awaited only when it is a promise. SQLite writes
            // the answer's JSON itself where the build gave the query the SQL for it.
            const written = respond === undefined ? databaseJson(rdb, endpoint, input) : undefined;
            let result = written ?? settled(ctx, endpoint.run(rdb, input, ctx));
            if (result instanceof Promise) result = await result;
            afterCall(ctx);
            // Past the write timeout the 503 has gone out; the result has no one to go to.
            if (!res.headersSent) {
              if (closesAfter(accepting, deadlines, res)) res.setHeader("Connection", "close");
              if (ctx.cookies !== undefined) res.setHeader("Set-Cookie", ctx.cookies);
              if (written !== undefined) sendDatabaseJson(res, result as string);
              else if (result instanceof WebhookReply) result.send(res);
              else if (endpoint.answersFile === true && uploads !== null) await uploads.send(req, res, result);
              else if (respond !== undefined) sendShaped(res, respond(result, respondInput(match.params, req, site)));
              else if (endpoint.json !== undefined) sendGeneratedJson(res, endpoint.json(result));
              else sendOk(res, result);
            }
          }
        }
      }
    } catch (err) {
      if (!res.headersSent) {
        // Decided here, on the error path only: whether the target answers with the envelope.
        const envelope = errorShape !== null && matched !== null && answersEnvelope(matched, method, q === -1 ? "" : target.slice(q + 1));
        answerError(res, err, errors, envelope, log, requestId, req.method, path, closesAfter(accepting, deadlines, res));
        lingerIfUnread(req, res);
      } else if (!res.writableEnded) {
        // Failed halfway through a response (a streamed answer): the only honest thing left is to cut it.
        if (!res.destroyed) log.error("answer cut short", { request_id: requestId, error: err instanceof Error ? err.message : String(err) });
        res.destroy();
      }
    }
    const durationMs = performance.now() - started;
    log.request({ requestId, method: req.method ?? "", path, logged, status: res.statusCode, durationMs });
    if (observer !== null) observer.answered(span, route, path, logged !== null, method, res, durationMs);
    // Done with the response: its write deadline is met now, or when it closes.
    deadlines.settle(res);
  }

  return {
    handle,
    handleContinue(req: IncomingMessage, res: Answer): void {
      // `Expect: 100-continue` (RFC 9110 §10.1.1): a body over the limit is refused before the
      // client sends it; otherwise Node's default, "100 Continue" then the request.
      const length = Number(req.headers["content-length"]);
      if (!(length > (uploads !== null && isMultipart(req) ? uploads.maxRequestSize : maxBodySize))) res.writeContinue();
      void handle(req, res);
    },
    router,
    deadlines,
    close: () => {
      deadlines.stop();
      void outbox?.stop();
    },
    stopBackground: async () => outbox?.stop(),
    errors,
  };
}

/** Builds the HTTP server for `spec`: createHandler's handler behind a `node:http` socket. The caller listens and closes it. */
export function createServer(spec: ServerSpec, db: Database, options: ServerOptions, log: Logger, observer: Observer | null = null): Server {
  const handler = createHandler(spec, db, options, log, { accepting: () => server.listening, observer });
  // handle never rejects: every error ends in answerError.
  // `--server-header`: a response class that sets it, or Answer itself when there is none (answers/server-header.ts).
  const ServerResponse = answerClass(options.serverHeader);
  const server = createHttpServer({ ...httpServerOptions(options.readTimeoutMs), ServerResponse }, (req, res) => void handler.handle(req, res));
  server.on("clientError", (err: Error, socket) => answerClientError(err, socket, log, options.readTimeoutMs, handler.errors));
  server.on("connect", (req: IncomingMessage, socket: Socket) => answerConnect(req, socket, log, handler.errors));
  server.on("checkContinue", (req: IncomingMessage, res: Answer) => handler.handleContinue(req, res));
  const all = new Set<Socket>();
  const forget = function (this: Socket): void {
    all.delete(this);
  };
  server.on("connection", (socket: Socket) => {
    all.add(socket);
    socket.once("close", forget);
  });
  server.once("close", () => handler.close());
  trackConnections(server, { all, deadlines: handler.deadlines, stopBackground: handler.stopBackground });
  return server;
}

/** Past --write-timeout: a 503 if nothing was sent yet, else the connection is cut (a client not reading holds nothing). */
function onWriteTimeout(res: ServerResponse, log: Logger, timeoutMs: number, errors: ErrorAnswers): void {
  log.warn("write timeout", { request_id: requestIdOf(res), write_timeout_ms: timeoutMs });
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // The server's own error, whatever the target: in the declared shape when there is one.
  const late = new HttpError(503, `the server did not answer within the write timeout (${timeoutMs} ms)`, { code: "SVC_ERR_WRITE_TIMEOUT", headers: CLOSE });
  errors.send(res, late, log, { request_id: requestIdOf(res) }, false);
  lingerIfUnread(res.req, res);
}

/**
 * Whether the target answers with the envelope, errors included (docs/language.md §3 Error
 * shape): an endpoint without `respond` (a module endpoint, a route, a webhook), or the
 * route-file block the request chose when it has none. Everything else takes `[errors]`.
 */
function answersEnvelope(target: BoundTarget, method: string, rawQuery: string): boolean {
  if (target.kind === "endpoint") return target.respond === undefined;
  return target.kind === "file" && blockAnswersEnvelope(target.file, method, rawQuery);
}

/** What a module route's `respond` reads of the request. */
function respondInput(params: Record<string, string> | null, req: IncomingMessage, site: SiteOptions): RespondInput {
  return { params: params ?? newArgs(), view: new RequestView(req, site) };
}

/**
 * During shutdown a response closes its keep-alive connection so the server can stop;
 * unless a request pipelined behind it waits on the same connection: then that one's 503
 * closes it, and is not lost with the connection.
 */
function closesAfter(accepting: () => boolean, deadlines: WriteDeadlines, res: ServerResponse): boolean {
  return !accepting() && !deadlines.hasLaterOnConnection(res);
}
