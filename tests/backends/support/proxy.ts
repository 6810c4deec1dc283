// A TCP proxy in front of a database server, so a test can make the database unreachable
// for a server under test (and reachable again) without touching the real one.

import { type Server, type Socket, createConnection, createServer } from "node:net";

export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** Clients accepted while held: connected to the database only on `release`. */
  private held: Socket[] | null = null;
  private resets = 0;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens on 127.0.0.1 (the same port as before when restarted). */
  async start(): Promise<number> {
    const server = createServer((client) => {
      this.track(client);
      if (this.held !== null) this.held.push(client);
      else this.forward(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.on("close", () => this.sockets.delete(s));
    s.on("error", () => s.destroy());
  }

  private forward(client: Socket): void {
    if (client.destroyed) return;
    const upstream = createConnection(this.targetPort, this.targetHost);
    this.track(upstream);
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  }

  /**
   * Cuts every connection, both sides at once, and keeps listening: a network blip. Unless
   * told which, every other reset closes them with a TCP RST rather than a FIN, as a crashed
   * peer or a middlebox would.
   */
  reset(how: "rst" | "fin" | "alternate" = "alternate"): void {
    const rst = how === "alternate" ? this.resets++ % 2 === 1 : how === "rst";
    for (const s of this.sockets) {
      // Only an open connection is reset. On one still connecting, resetAndDestroy waits
      // for the connection and resets it then; a worker thread whose socket was left that
      // way spun forever closing its handles when it stopped, and the test run never ended.
      if (rst && s.readyState === "open") s.resetAndDestroy();
      else s.destroy();
    }
    this.sockets.clear();
  }

  /**
   * Cuts every connection; new ones are accepted and answered nothing (what they send
   * waits) until `release`: a database that is slow to take connections.
   */
  hold(): void {
    this.reset();
    this.held = [];
  }

  /** Connects the held clients to the database, and every client from now on. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const client of held) this.forward(client);
  }

  /** Cuts every connection and stops listening: the database is gone, as far as the server can tell. */
  async stop(): Promise<void> {
    this.held = null;
    this.reset("fin");
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
