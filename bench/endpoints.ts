import { seededRandom } from "./ulid.js";

export const ENDPOINTS = ["list_tasks", "get_task", "create_task"] as const;
export type EndpointName = (typeof ENDPOINTS)[number];

/** The instruction-count mode adds GET /health, the request with the least work behind it. */
export const COUNTED_ENDPOINTS = ["health", ...ENDPOINTS] as const;
export type CountedEndpoint = (typeof COUNTED_ENDPOINTS)[number];

/** One request as autocannon's `requests` option takes it. */
export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export const PATHS: Record<CountedEndpoint, string> = {
  health: "/health",
  list_tasks: "/api/task_tracker:list_tasks",
  get_task: "/api/task_tracker:get_task",
  create_task: "/api/task_tracker:create_task",
};

export const CREATE_BODY = { title: "Benchmark task", priority: "high" } as const;

/**
 * The request sequence each autocannon connection loops over. get_task walks every seeded id in
 * a fixed shuffled order, so a run reads rows from all over the table rather than one hot row.
 */
export function loadRequests(endpoint: CountedEndpoint, seededIds: readonly string[]): LoadRequest[] {
  switch (endpoint) {
    case "health":
      return [{ method: "GET", path: PATHS.health }];
    case "list_tasks":
      return [{ method: "GET", path: `${PATHS.list_tasks}?limit=50` }];
    case "get_task":
      return shuffled(seededIds).map((id) => ({
        method: "GET",
        path: `${PATHS.get_task}?id=${encodeURIComponent(id)}`,
      }));
    case "create_task":
      return [
        {
          method: "POST",
          path: PATHS.create_task,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(CREATE_BODY),
        },
      ];
  }
}

function shuffled<T>(items: readonly T[]): T[] {
  const rng = seededRandom(7);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
