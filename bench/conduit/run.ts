// `npm run bench:conduit -- --callgrind`: instructions per request of examples/conduit's
// generated server and a Fastify 5 baseline (fastify.ts) on `GET /api/articles` (20 articles,
// signed in) and `POST /api/articles` (2 tags), each server alone under callgrind, with
// bench/callgrind's warm-up and count. Without --callgrind it only checks that both servers
// answer alike. See bench/README.md ("bench:conduit").
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { cpus, loadavg, platform, release, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { SignJWT } from "jose";
import { createSecretKey } from "node:crypto";
import { integer } from "../args.js";
import type { LoadRequest } from "../endpoints.js";
import { benchPaths } from "../paths.js";
import type { BenchPaths } from "../paths.js";
import type { Resources } from "../resources.js";
import { log, runBench, writeResults } from "../runner.js";
import { startServer } from "../server-process.js";
import type { RunningServer, ServerSpec } from "../server-process.js";
import { buildSvc } from "../svc-build.js";
import { COUNT_METHOD, countEndpoint } from "../callgrind/measure.js";
import { CALLGRIND_FLAGS, CALLGRIND_USAGE, callgrindOptions } from "../callgrind/options.js";
import type { CallgrindOptions } from "../callgrind/options.js";
import { countRatios, formatCountTable } from "../callgrind/report.js";
import type { Column, CountRecord } from "../callgrind/report.js";
import { CallgrindCounters, requireValgrind, underCallgrind } from "../callgrind/valgrind.js";
import { difference, locationPath } from "./compare.js";
import type { Answer } from "./compare.js";
import { conduitSeed, SEEDED_ARTICLES, trimArticles, writeSeed } from "./seed.js";

const JWT_SECRET = "conduit-bench-secret-conduit-bench-secret!";
const READY_PATH = "/api/articles?limit=1";
const ENDPOINTS = ["GET /api/articles", "POST /api/articles"] as const;
type Endpoint = (typeof ENDPOINTS)[number];
const COLUMNS: readonly Column[] = [
  { server: "svc", label: "svc" },
  { server: "fastify", label: "Fastify 5" },
];
/** The counted create: a title that is taken after the first, so every later one takes the same path. */
const NEW_ARTICLE = {
  article: {
    title: "Bench article",
    description: "Counted by callgrind",
    body: "An article the bench creates and deletes again.",
    tagList: ["bench", "coffee"],
  },
};

interface Options {
  count: CallgrindOptions | null;
  connections: number;
}

const USAGE = `npm run bench:conduit [-- --callgrind [flags]]
Without --callgrind: builds examples/conduit, seeds ${SEEDED_ARTICLES} articles, and checks that svc and the
Fastify baseline answer GET and POST /api/articles alike. With it, also counts instructions per request.
${CALLGRIND_USAGE}`;

function parse(argv: string[]): Options | "help" {
  const { values } = parseArgs({
    args: argv,
    options: { ...CALLGRIND_FLAGS, connections: { type: "string" }, help: { type: "boolean" } },
    strict: true,
  });
  if (values.help) return "help";
  const connections = integer("--connections", values.connections, 8, 1, 1000);
  return { count: callgrindOptions(values, connections, []), connections };
}

async function main(options: Options, resources: Resources): Promise<void> {
  const valgrind = options.count ? requireValgrind() : null;
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg()[0];
  const paths = benchPaths();
  const tmp = mkdtempSync(join(tmpdir(), "svc-bench-conduit-"));
  resources.trackDir(tmp);
  // The generated server and the baseline read the secret from the environment.
  process.env.JWT_SECRET = JWT_SECRET;

  log("building the svc server from examples/conduit …");
  const conduitPaths: BenchPaths = { ...paths, exampleProject: join(paths.repoRoot, "examples", "conduit") };
  const build = await buildSvc(conduitPaths, join(tmp, "svc-dist"), resources);
  if (!build.ok) throw new Error(`svc build failed: ${build.reason}`);
  const seedFile = join(tmp, "seed.db");
  const specs: Record<string, (db: string) => ServerSpec> = {
    svc: (db) => ({
      name: "svc",
      args: [build.serverJs, "--db", db, ...(options.count?.svcLogLevel ? ["--log-level", options.count.svcLogLevel] : []), ...(build.acceptsWorkers ? ["--workers", "1"] : [])],
      cwd: tmp,
      readyPath: READY_PATH,
    }),
    fastify: (db) => ({
      name: "fastify",
      args: [join(dirname(paths.fastifyServer), "..", "conduit", "fastify.js"), "--db", db, "--stop-with-stdin"],
      cwd: tmp,
      readyPath: READY_PATH,
    }),
  };
  // svc refuses a table that differs from its declaration, so it makes the schema itself.
  const first = await startServer(specs.svc(seedFile), resources);
  await first.stop();
  const seed = conduitSeed();
  writeSeed(seedFile, seed);
  const token = await readerToken(seed.readerId);
  const dbFiles: Record<string, string> = {};
  for (const name of Object.keys(specs)) {
    dbFiles[name] = join(tmp, `${name}.db`);
    copyFileSync(seedFile, dbFiles[name]);
  }

  // Both servers plainly first: the same answers, or no figure means anything.
  const answers: Record<string, Answer[]> = {};
  for (const name of Object.keys(specs)) {
    const server = await startServer(specs[name](dbFiles[name]), resources);
    try {
      answers[name] = await probe(server.baseUrl, token);
    } finally {
      await server.stop();
    }
    trimArticles(dbFiles[name], seed);
  }
  const probes = ["GET signed in", "GET anonymous", "GET ?tag=coffee&limit=5", "POST", "POST again (title taken)", "POST without token", "POST title a number"];
  for (const [i, label] of probes.entries()) {
    const diff = difference(answers.svc[i], answers.fastify[i], label.startsWith("POST"));
    // Error texts are each server's own (Fastify's come from its JSON-schema validator): only the status must agree.
    if (diff !== null && !(answers.svc[i].status >= 400 && diff.startsWith("bodies differ"))) {
      throw new Error(`svc and the Fastify baseline answer ${label} differently: ${diff}`);
    }
  }
  const listBytes = Buffer.byteLength(answers.svc[0].body);
  log(`both servers answer alike (list: ${listBytes} bytes, identical; create: equal but for times and the id in a taken slug)`);
  if (options.count === null || valgrind === null) return;
  const count = options.count;

  const dumpDir = join(tmp, "callgrind");
  mkdirSync(dumpDir);
  const keepDir = count.keepDumps === null ? null : resolve(count.keepDumps);
  if (keepDir) mkdirSync(keepDir, { recursive: true });
  const records: CountRecord[] = [];
  for (const name of Object.keys(specs)) {
    log(`${name}: starting under callgrind (slow: up to a few minutes) …`);
    const server: RunningServer = await startServer(underCallgrind(specs[name](dbFiles[name]), dumpDir), resources);
    const counters = new CallgrindCounters(server.pid, dumpDir);
    for (const endpoint of ENDPOINTS) {
      const result = await countEndpoint(
        {
          label: `${name} ${endpoint}`,
          server,
          counters,
          driverPath: paths.driver,
          requests: [loadRequest(endpoint, token)],
          afterBatch: () => void trimArticles(dbFiles[name], seed),
          keepDumpAs: keepDir ? join(keepDir, `${name}.${endpoint.replace(/\W+/g, "_")}.callgrind.out`) : undefined,
        },
        { ...count, connections: options.connections },
        resources,
        log,
      ).catch((error: Error) => {
        const output = server.outputTail();
        throw new Error(`${error.message}${output ? `\n--- ${name} output ---\n${output}` : ""}`);
      });
      records.push({ server: name, endpoint, ...result });
      log(`${name} ${endpoint}: ${Math.round(result.perRequest).toLocaleString("en-US")} instructions/request`);
    }
    await server.stop();
  }

  const title =
    `svc bench:conduit, instructions per request (callgrind): examples/conduit on SQLite, ${SEEDED_ARTICLES} articles; ` +
    `${count.requests} counted after warm-up batches of ${count.warmupRequests} (settled within ` +
    `${count.settle.tolerance * 100} %), ${options.connections} connections; svc log level ` +
    `${count.svcLogLevel ?? "default"}; node --single-threaded ${process.version}, ${valgrind}`;
  process.stdout.write(`${title}\n\n${formatCountTable(records, ENDPOINTS, COLUMNS)}\n`);
  const cpuList = cpus();
  const file = writeResults(paths.resultsDir, "conduit-callgrind-", startedAt, {
    startedAt,
    finishedAt: new Date().toISOString(),
    options,
    machine: {
      cpuModel: cpuList[0]?.model.trim() ?? "unknown",
      cpus: cpuList.length,
      node: process.version,
      valgrind,
      os: `${platform()} ${release()}`,
      loadAverageAtStart: loadAtStart,
    },
    method: COUNT_METHOD,
    seededArticles: SEEDED_ARTICLES,
    listBytes,
    ratios: countRatios(records, ["fastify"]),
    counts: records,
  });
  log(`\nfull results: ${file}`);
}

/** A token for the reader as svc's `issue_token` makes them: HS256, sub, iat, exp, iss, aud. */
function readerToken(sub: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + 86_400)
    .setIssuer("conduit")
    .setAudience("conduit")
    .sign(createSecretKey(Buffer.from(JWT_SECRET, "utf8")));
}

function loadRequest(endpoint: Endpoint, token: string): LoadRequest {
  const authorization = `Token ${token}`;
  return endpoint === "GET /api/articles"
    ? { method: "GET", path: "/api/articles", headers: { authorization } }
    : {
        method: "POST",
        path: "/api/articles",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify(NEW_ARTICLE),
      };
}

/** The requests both servers must answer alike, in the order `main` labels them. */
async function probe(baseUrl: string, token: string): Promise<Answer[]> {
  const auth = { authorization: `Token ${token}` };
  const json = { ...auth, "content-type": "application/json" };
  const ask = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(baseUrl + path, init);
    return { status: res.status, body: await res.text(), location: locationPath(res.headers.get("location")) };
  };
  const post = (headers: Record<string, string>, body: unknown) =>
    ask("/api/articles", { method: "POST", headers, body: JSON.stringify(body) });
  return [
    await ask("/api/articles", { headers: auth }),
    await ask("/api/articles"),
    await ask("/api/articles?tag=coffee&limit=5", { headers: auth }),
    await post(json, NEW_ARTICLE),
    await post(json, NEW_ARTICLE),
    await post({ "content-type": "application/json" }, NEW_ARTICLE),
    await post(json, { article: { ...NEW_ARTICLE.article, title: 5 } }),
  ];
}


runBench({ name: "bench:conduit", usage: USAGE, parse, main });
