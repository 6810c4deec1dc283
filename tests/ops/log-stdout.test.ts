// The request log writes stdout with write(2) itself (runtime/core/log.ts). Attacked here the way
// a log pipe fails in production: a reader that stops reading for a while (the pipe fills and
// writes wait) and a reader that goes away. Every line must arrive whole, once and in order,
// and a gone reader must not take the process down with it.

import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "../support/jest.js";
import { repoRoot } from "../support/paths.js";

const LOG = pathToFileURL(join(repoRoot, "build", "runtime", "core", "log.js")).href;

/** A process that logs `lines` lines over many turns of the event loop, some long and some not ASCII. */
const CHILD = `
import { Logger } from ${JSON.stringify(LOG)};
const log = new Logger("info");
const total = Number(process.argv[1]);
let n = 0;
function burst() {
  for (let k = 0; k < 50 && n < total; k++, n++) {
    const pad = n % 97 === 0 ? "x".repeat(6000) : n % 5 === 0 ? "é€".repeat(n % 40) : "";
    log.request({ requestId: "r-" + n, method: "GET", logged: null, path: "/p/" + n + pad, status: 200, durationMs: 1 });
  }
  if (n < total) setImmediate(burst);
  else { log.flush(); process.stderr.write("done\\n"); }
}
burst();
`;

function run(lines: number, pauseMs: number): Promise<{ out: string; err: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD, String(lines)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8");
    child.stdout.pause();
    setTimeout(() => {
      child.stdout.on("data", (chunk: string) => (out += chunk));
      child.stdout.resume();
    }, pauseMs);
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("close", (code) => resolve({ out, err, code }));
  });
}

describe("the request log on stdout", () => {
  test("a reader that stops for a while gets every line, whole, once and in order", async () => {
    const lines = 20_000;
    const { out, err, code } = await run(lines, 400);
    expect(code).toBe(0);
    expect(err).toBe("done\n");
    const parsed = out.split("\n").filter(Boolean).map((line) => JSON.parse(line) as { request_id: string; path: string });
    expect(parsed).toHaveLength(lines);
    parsed.forEach((entry, n) => {
      expect(entry.request_id).toBe(`r-${n}`);
      // Exactly as logged: ASCII pieces go out as latin1, the others as UTF-8.
      const pad = n % 97 === 0 ? "x".repeat(6000) : n % 5 === 0 ? "é€".repeat(n % 40) : "";
      expect(entry.path).toBe(`/p/${n}${pad}`);
    });
  }, 30_000);

  test("a reader that goes away costs the lines, not the process", async () => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD, "200000"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    await new Promise((resolve) => child.stdout.once("data", resolve));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(err).toBe("done\n");
    expect(code).toBe(0);
  }, 30_000);
});
