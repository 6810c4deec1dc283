// Closing a connection whose request body was not read (a 413, a 415, a framing error, a
// timeout): the answer goes out with `Connection: close`, but if the socket is then closed
// while the client's body bytes are still arriving, the kernel answers them with a TCP
// reset, and a reset can make the client drop the answer before reading it (RFC 9112 §9.6:
// "close the connection in stages"). So the write side is closed first and the rest of the
// body is read and thrown away (never kept) for a short while before the socket is
// destroyed, as Go's net/http (rstAvoidanceDelay) and nginx (lingering_close) do.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** At most this long reading and discarding after the answer; a client sending longer is cut off. */
export const LINGER_MS = 2000;

/**
 * Connections already answered for good. The parser may still report the unread rest as
 * an error (a truncated body when the client stops); there is nothing left to answer.
 */
const answered = new WeakSet<object>();

export function markAnswered(socket: object): void {
  answered.add(socket);
}

export function isAnswered(socket: object): boolean {
  return answered.has(socket);
}

/** Call right after answering `req` on `res`; acts only when the answer closes the connection with body bytes unread. */
export function lingerIfUnread(req: IncomingMessage, res: ServerResponse, ms: number = LINGER_MS): void {
  if (req.complete || res.destroyed) return;
  res.once("finish", () => {
    const socket = req.socket;
    // Not ended: a kept-alive connection, where Node reads the rest of the body to reuse it.
    if (socket.destroyed || !socket.writableEnded) return;
    // Node's response finish ended the socket (destroySoon) and would destroy it once the
    // FIN is out: keep it open for reading instead.
    socket.removeListener("finish", socket.destroy);
    markAnswered(socket);
    lingerSocket(socket, ms);
    // The parser still feeds the body to `req`; with no listener the data is dropped.
    req.resume();
    req.once("end", () => socket.destroy());
  });
}

/** Ends the write side of `socket` (if still open) and destroys it after `ms` or when the peer closes. */
export function lingerSocket(socket: Socket, ms: number = LINGER_MS): void {
  markAnswered(socket);
  if (!socket.writableEnded) socket.end();
  const timer = setTimeout(() => socket.destroy(), ms);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.once("end", () => socket.destroy());
}
