// What a graceful shutdown (shutdown.ts) needs to know about a server made by createServer
// (server.ts): its connections, which of them have a request in flight, and how to stop
// its background work (the outbox's deliveries) before the database closes.

import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { WriteDeadlines } from "./timeouts.js";

interface Connections {
  all: Set<Socket>;
  deadlines: WriteDeadlines;
  stopBackground: () => Promise<void>;
}

const connectionsOf = new WeakMap<Server, Connections>();

export function trackConnections(server: Server, connections: Connections): void {
  connectionsOf.set(server, connections);
}

/**
 * Connections of `server` with no request being answered: idle keep-alive ones, and ones
 * still sending a request's headers. A graceful shutdown closes these and waits for the rest.
 */
export function connectionsWithoutRequest(server: Server): Socket[] {
  const connections = connectionsOf.get(server);
  if (connections === undefined) return [];
  const busy = connections.deadlines.busySockets();
  return [...connections.all].filter((socket) => !busy.has(socket));
}

/** Stops `server`'s background work gracefully: no new deliveries, those in flight cut and their leases given back. */
export function stopBackground(server: Server): Promise<void> {
  return connectionsOf.get(server)?.stopBackground() ?? Promise.resolve();
}
