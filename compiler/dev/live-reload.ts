// `svc dev`'s live reload: a server-sent-events stream that open pages listen on, and the
// small script that listens. Only `svc dev` serves these paths; a built server never does.

import type { IncomingMessage, ServerResponse } from "node:http";
import { readTemplate } from "../templates.js";

export const DEV_PREFIX = "/__svc/dev/";
export const EVENTS_PATH = `${DEV_PREFIX}events`;
export const CLIENT_PATH = `${DEV_PREFIX}client.js`;

/** Keeps idle proxies and browsers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

// templates/dev/client.js, loaded by <script src> rather than inline: pages'
// Content-Security-Policy allows scripts from this server only. A lost connection (the dev
// server restarting) retries by itself. When only the main area can have changed and the page
// runs Unpoly, Unpoly re-renders the main area in place (scroll position, open details and
// form input elsewhere survive); anything else, an error overlay on the page, or a failed
// re-render, reloads the page. It listens on EVENTS_PATH, written out in it.
const clientJs = (): string => readTemplate("dev/client.js");

/** The open event streams, and telling them to reload. */
export class LiveReload {
  private readonly clients = new Set<ServerResponse>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor() {
    this.heartbeat = setInterval(() => this.send(": heartbeat\n\n"), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  /** Answers the dev paths; false for any other request. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (path === EVENTS_PATH) {
      res.writeHead(200, {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-cache",
        "X-Accel-Buffering": "no",
      });
      // Tells EventSource how soon to reconnect after the dev server restarts.
      res.write("retry: 500\n\n");
      this.clients.add(res);
      const forget = (): void => {
        this.clients.delete(res);
      };
      req.socket.once("close", forget);
      res.once("close", forget);
      return true;
    }
    if (path === CLIENT_PATH) {
      res.writeHead(200, {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "no-cache",
        "Content-Length": Buffer.byteLength(clientJs()),
      });
      res.end(req.method === "HEAD" ? undefined : clientJs());
      return true;
    }
    return false;
  }

  /**
   * Every open page shows the new build: with `main`, pages running Unpoly re-render just
   * their main area; otherwise, and on pages without Unpoly, the whole page reloads.
   */
  reload(reason: string, main = false): void {
    this.send(`event: reload\ndata: ${JSON.stringify({ reason, main })}\n\n`);
  }

  /** Ends every stream (the dev server is stopping). */
  close(): void {
    clearInterval(this.heartbeat);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private send(text: string): void {
    for (const res of this.clients) res.write(text);
  }
}
