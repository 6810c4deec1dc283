// Steady load on one running svc server: autocannon from a separate driver process
// (../driver.ts through ../load.ts), one run per endpoint.
import { ENDPOINTS, loadRequests, type EndpointName } from "../endpoints.js";
import { runLoad } from "../load.js";
import type { Resources } from "../resources.js";
import type { RunningServer } from "../server-process.js";

export type SoakEndpoint = Extract<EndpointName, "list_tasks" | "create_task">;
export const SOAK_ENDPOINTS: readonly SoakEndpoint[] = ENDPOINTS.filter(
  (e): e is SoakEndpoint => e === "list_tasks" || e === "create_task",
);

export interface SoakFigures {
  endpoint: SoakEndpoint;
  seconds: number;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

export async function soak(
  server: RunningServer,
  endpoint: SoakEndpoint,
  connections: number,
  seconds: number,
  driverPath: string,
  resources: Resources,
): Promise<SoakFigures> {
  const result = await runLoad(
    {
      driverPath,
      serverPid: server.pid,
      run: {
        url: server.baseUrl,
        connections,
        durationSeconds: seconds,
        // list_tasks and create_task take no seeded ids.
        requests: loadRequests(endpoint, []),
      },
    },
    resources,
  );
  return {
    endpoint,
    seconds: result.durationSeconds,
    requests: result.requests,
    reqPerSec: result.requests / result.durationSeconds,
    p50Ms: result.latencyP50Ms,
    p99Ms: result.latencyP99Ms,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: result.statusCodes,
  };
}
