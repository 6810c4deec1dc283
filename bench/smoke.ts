import { CREATE_BODY, PATHS } from "./endpoints.js";
import type { EndpointName } from "./endpoints.js";
import type { SeededTask } from "./seed.js";

/** Size in bytes of one response body per endpoint, to show each server sends the same data. */
export type ResponseBytes = Record<EndpointName, number>;

/**
 * Checks, before any load, that a server answers the three endpoints with the envelope and the
 * seeded data, so the figures compare servers doing the same work. Throws on any difference.
 * Leaves one created task behind (trimToSeed removes it).
 */
export async function checkServer(baseUrl: string, seeded: readonly SeededTask[]): Promise<ResponseBytes> {
  const newestFirst = [...seeded].reverse();

  const list = await call(baseUrl, "GET", `${PATHS.list_tasks}?limit=50`);
  const rows = list.data as SeededTask[];
  expect(Array.isArray(rows) && rows.length === 50, "list_tasks?limit=50 returns 50 rows", list.text);
  const wantIds = newestFirst.slice(0, 50).map((task) => task.id);
  expect(
    rows.every((row, i) => row.id === wantIds[i]),
    "list_tasks returns the newest 50 seeded tasks, newest first",
    list.text,
  );

  const sample = seeded[Math.floor(seeded.length / 2)];
  const one = await call(baseUrl, "GET", `${PATHS.get_task}?id=${encodeURIComponent(sample.id)}`);
  const got = one.data as SeededTask;
  for (const field of Object.keys(sample) as (keyof SeededTask)[]) {
    expect(got?.[field] === sample[field], `get_task returns the seeded task's ${field}`, one.text);
  }

  const created = await call(baseUrl, "POST", PATHS.create_task, JSON.stringify(CREATE_BODY));
  const task = created.data as SeededTask;
  expect(
    task?.title === CREATE_BODY.title &&
      task.priority === CREATE_BODY.priority &&
      task.status === "open" &&
      typeof task.id === "string",
    "create_task returns the new open task",
    created.text,
  );
  return { list_tasks: list.bytes, get_task: one.bytes, create_task: created.bytes };
}

/**
 * Checks GET /health answers 200 `{"status":"ok","version":…,"uptime_seconds":…}` (svc's shape,
 * runtime/health.ts, which the baselines copy); returns the body's size in bytes.
 */
export async function checkHealth(baseUrl: string): Promise<number> {
  const response = await fetch(baseUrl + PATHS.health, { signal: AbortSignal.timeout(5000) });
  const text = await response.text();
  let body: { status?: unknown; version?: unknown; uptime_seconds?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Reported by the check below with the text as it came.
  }
  expect(
    response.status === 200 &&
      body.status === "ok" &&
      typeof body.version === "string" &&
      Number.isInteger(body.uptime_seconds) &&
      Object.keys(body).length === 3,
    `GET ${PATHS.health} answers 200 {"status":"ok","version":…,"uptime_seconds":…}`,
    `${response.status} ${text}`,
  );
  return Buffer.byteLength(text);
}

async function call(baseUrl: string, method: "GET" | "POST", path: string, body?: string) {
  const response = await fetch(baseUrl + path, {
    method,
    body,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  let envelope: { ok?: unknown; data?: unknown };
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    throw new Error(
      `${method} ${path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 300)}`,
    );
  }
  expect(
    response.status === 200 && envelope.ok === true,
    `${method} ${path} answers 200 {"ok":true,…}`,
    `${response.status} ${text}`,
  );
  return { data: envelope.data, text, bytes: Buffer.byteLength(text) };
}

function expect(condition: boolean, what: string, got: string): void {
  if (!condition) throw new Error(`check failed: ${what}; got ${got.slice(0, 400)}`);
}
