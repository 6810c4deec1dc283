// Helpers for the operations tests: a generated task tracker that runs on the runtime
// compiled next to these tests (not whatever `svc/runtime` resolves to), raw sockets for
// what an HTTP client library would refuse to send, and log lines as objects.

import { writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { DiscoverTarget } from "../../compiler/project/discover.js";
import { buildFiles, serverBuild, writeFiles } from "../support/build-cache.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, tmpDir } from "../support/server.js";

/** The runtime compiled alongside this file (build/runtime or build-NAME/runtime). */
export const runtimeUrl = new URL("../../runtime/index.js", import.meta.url).href;
export const svcServerJs = new URL("../../compiler/cli/svc-server.js", import.meta.url).pathname;
export const exampleDir = join(repoRoot, "examples", "task_tracker");

/** Builds `target` (default: the task tracker) into a fresh folder under build/tmp and returns it. */
export async function buildServer(target: DiscoverTarget = { mode: "project", dir: exampleDir }): Promise<string> {
  const files = await buildFiles(target, serverBuild(runtimeUrl));
  const dir = tmpDir("ops-");
  writeFiles(dir, files);
  return dir;
}

export interface RawAnswer {
  /** Everything the server sent, as latin1 text. */
  text: string;
  /** Status of the first response, or 0 when none came. */
  status: number;
  /** Header names in lower case, of the first response. */
  headers: Record<string, string>;
  /** The first response's body parsed as JSON, when it is JSON. */
  json: any;
  /** The server closed the connection (FIN or reset) before `waitMs` ran out. */
  closed: boolean;
  /** ms from connecting to the close, or to giving up. */
  elapsedMs: number;
}

/** Parses the first response out of raw bytes (Content-Length framed, as the server always sends). */
export function parseResponse(text: string): Pick<RawAnswer, "status" | "headers" | "json"> {
  const headEnd = text.indexOf("\r\n\r\n");
  if (!text.startsWith("HTTP/1.1 ") || headEnd === -1) return { status: 0, headers: {}, json: undefined };
  const lines = text.slice(0, headEnd).split("\r\n");
  const status = Number(lines[0].slice(9, 12));
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? 0);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text.slice(headEnd + 4, headEnd + 4 + length), "latin1").toString("utf8"));
  } catch {
    json = undefined;
  }
  return { status, headers, json };
}

/**
 * Connects, lets `script` write (it may wait between writes), and collects what comes back
 * until the server closes the connection or `waitMs` passes.
 */
export function raw(
  port: number,
  script: string | Buffer | ((socket: Socket) => Promise<void> | void),
  waitMs = 5000,
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      resolve({ text, closed, elapsedMs: Date.now() - started, ...parseResponse(text) });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("connect", () => {
      if (typeof script === "function") {
        Promise.resolve(script(socket)).catch(() => undefined);
      } else {
        socket.write(script);
      }
    });
  });
}

/** A request as bytes; `\r\n` line ends unless the test means otherwise. */
export function request(
  method: string,
  path: string,
  headers: Record<string, string | number> = {},
  body = "",
): string {
  const lines = [`${method} ${path} HTTP/1.1`, "Host: localhost"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

/** JSON POST to an action, as bytes. */
export function postJson(path: string, body: string, extra: Record<string, string | number> = {}): string {
  return request(
    "POST",
    path,
    { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...extra },
    body,
  );
}

/** The server still answers a normal request. */
export async function expectAlive(server: TestServer): Promise<void> {
  const r = await call(`${server.url}/api/task_tracker:list_tasks?limit=1`);
  if (r.status !== 200) throw new Error(`server did not answer the next request: ${r.status} ${r.text}`);
}

/** Every JSON log line the server printed so far, or since output line `from`. */
export function logLines(server: TestServer, from = 0): Record<string, any>[] {
  return server.output.slice(from).flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      return [JSON.parse(line) as Record<string, any>];
    } catch {
      return [];
    }
  });
}

/** Waits until `predicate` holds on a log line (printed since output line `from`), or throws after `ms`. */
export async function waitForLog(
  server: TestServer,
  predicate: (line: Record<string, any>) => boolean,
  ms = 10_000,
  from = 0,
): Promise<Record<string, any>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = logLines(server, from).find(predicate);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no such log line within ${ms} ms:\n${server.output.join("\n")}`);
    await sleep(25);
  }
}

/** Number of tasks the server lists (up to 1000). */
export async function taskCount(server: TestServer): Promise<number> {
  const r = await call(`${server.url}/api/task_tracker:list_tasks?limit=1000`);
  return (r.json.data as unknown[]).length;
}

/** Resolves with the exit code once the process has exited. */
export function exited(server: TestServer): Promise<number | null> {
  const child = server.process;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}
