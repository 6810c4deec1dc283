// Messages between ops-load.ts (parent) and shutdown-driver.ts (child), over IPC:
//   parent → run{…}   driver starts its users → started
//   (the parent sends SIGTERM to the server while the load runs)
//   driver, once every user was refused a connection → result, and exits

export interface ShutdownRun {
  type: "run";
  host: string;
  port: number;
  connections: number;
}

export interface ShutdownDriverResult {
  /** [request id, status] of every request whose whole response arrived. */
  answered: [string, number][];
  /** [request id, what went wrong] of every other request. */
  failed: [string, string][];
}

export type ShutdownDriverMessage = { type: "started" } | { type: "result"; result: ShutdownDriverResult };
