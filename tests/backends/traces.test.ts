// Statement spans on PostgreSQL and MariaDB (docs/operations.md, Traces): the task tracker
// traced on each real server, its spans exported to an OTLP receiver on 127.0.0.1. A query's
// statement and an action's statements (in its transaction, through the driver's promises)
// are spans below their endpoint's span, named for the declared statement, with the
// database's `db.system` and never an argument value. SQLite's are checked in tests/ops/traces.

import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { removeDir, startServer, type TestServer } from "../support/server.js";
import { buildServer } from "../ops/support.js";
import { attrs, type OtlpSpan, Receiver } from "../ops/otlp.js";
import { backendAvailable, createNamespace, type Namespace } from "./support/databases.js";

const SYSTEMS = { postgres: "postgresql", mysql: "mysql" } as const;
const available = { postgres: await backendAvailable("postgres"), mysql: await backendAvailable("mysql") };

let dir: string;
let receiver: Receiver;
let port: number;
const servers: TestServer[] = [];
const namespaces: Namespace[] = [];

beforeAll(async () => {
  dir = await buildServer();
  receiver = new Receiver();
  port = await receiver.start();
});

afterAll(async () => {
  for (const server of servers) expect(await server.stop()).toBe(0);
  for (const ns of namespaces) await ns.drop();
  receiver?.server.close();
  removeDir(dir);
});

const CALLER = "00f067aa0ba902b7";

/** The spans of one trace once its request's span arrived: it ends after every span below it. */
async function traceOf(traceId: string): Promise<OtlpSpan[]> {
  await receiver.until(() => receiver.spans.some((s) => s.traceId === traceId && s.parentSpanId === CALLER));
  return receiver.spans.filter((s) => s.traceId === traceId);
}

describe.each(["postgres", "mysql"] as const)("%s", (backend) => {
  (available[backend] ? test : test.skip)("a query's statement and an action's statements are spans below their endpoint's, with the database's system", async () => {
    const ns = await createNamespace(backend, "traces");
    namespaces.push(ns);
    const server = await startServer(dir, ["--backend", backend, "--db", ns.url, "--jobs", "off"], {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_TRACES_SAMPLER: "always_on",
      // Export each batch soon after its spans end, not after the default 5 s.
      OTEL_BSP_SCHEDULE_DELAY: "20",
    });
    servers.push(server);

    const createTrace = backend === "postgres" ? "1bf92f3577b34da6a3ce929d0e0e4736" : "2bf92f3577b34da6a3ce929d0e0e4736";
    const title = `traced on ${backend}`;
    const created = await call(`${server.url}/api/task_tracker:create_task`, {
      json: { title, assignee: "ann" },
      headers: { traceparent: `00-${createTrace}-${CALLER}-01` },
    });
    expect(created.status).toBe(200);
    const id = (created.json as { data: { id: string } }).data.id;

    const getTrace = backend === "postgres" ? "3bf92f3577b34da6a3ce929d0e0e4736" : "4bf92f3577b34da6a3ce929d0e0e4736";
    const got = await call(`${server.url}/api/task_tracker:get_task?id=${id}`, { headers: { traceparent: `00-${getTrace}-${CALLER}-01` } });
    expect(got.status).toBe(200);

    // get_task: the request, its query, the query's one statement.
    const get = await traceOf(getTrace);
    const query = get.find((s) => s.name === "query task_tracker.get_task")!;
    expect(query).toBeDefined();
    const [statement, ...others] = get.filter((s) => s.parentSpanId === query.spanId);
    expect(others).toEqual([]);
    expect(statement!.name).toMatch(/^task_tracker\./);
    expect(attrs(statement!.attributes)).toMatchObject({
      "db.system": SYSTEMS[backend],
      "db.system.name": SYSTEMS[backend],
      "db.operation.name": "SELECT",
      "svc.statement": statement!.name,
    });
    expect(statement!.status?.code ?? 0).toBe(0);
    expect(BigInt(statement!.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(query.startTimeUnixNano));
    expect(BigInt(statement!.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(query.endTimeUnixNano));

    // create_task: its action's statement inside its transaction, an insert returning its row.
    const create = await traceOf(createTrace);
    const action = create.find((s) => s.name === "action task_tracker.create_task")!;
    expect(action).toBeDefined();
    const statements = create.filter((s) => s.parentSpanId === action.spanId);
    expect(statements.map((s) => attrs(s.attributes)["db.operation.name"])).toEqual(["INSERT"]);
    for (const s of statements) expect(attrs(s.attributes)["db.system.name"]).toBe(SYSTEMS[backend]);

    // Never an argument value: the title and the id are the request's, not the spans'.
    for (const span of [...get, ...create]) {
      if (span.name.startsWith("GET ") || span.name.startsWith("POST ")) continue;
      expect(JSON.stringify(span)).not.toContain(id);
      expect(JSON.stringify(span)).not.toContain(title);
    }
  });
});
