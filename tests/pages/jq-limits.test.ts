// page.jq programs that break what they run on (tests/pages/projects/jq-limits): a program
// that crashes jq-web's instance, one that never ends on jq-web, and a compiled one that
// nests a value past JavaScript's stack. Each request gets a clean error page, nothing of
// the failure reaches the client, and the server keeps answering every other request,
// jq-web pages included.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir } from "../support/server.js";
import { serveProject } from "./support.js";

let server: TestServer;
let out: string;

beforeAll(async () => {
  ({ out, server } = await serveProject(join(repoRoot, "tests", "pages", "projects", "jq-limits")));
});

afterAll(async () => {
  // Still up and stopping cleanly after all of it.
  expect(await server?.stop()).toBe(0);
  removeDir(out);
});

const html = (path: string) => call(`${server.url}${path}`, { headers: { accept: "text/html" } });

/** Nothing of a JavaScript or WebAssembly failure in what the client sees. */
function expectClean(text: string): void {
  expect(text).not.toMatch(/RuntimeError|RangeError|memory access|call stack|\bat .*\.js:\d+/);
}

async function expectServing(): Promise<void> {
  const fine = await html("/fine?who=ada");
  expect(fine.status).toBe(200);
  expect(fine.text).toContain('<p id="who">ada</p>');
  expect((await call(`${server.url}/health`)).status).toBe(200);
}

describe("a page.jq that crashes jq-web", () => {
  test("answers a 500 page; the next fallback call runs on a fresh instance", async () => {
    const small = await html("/crash?n=3");
    expect(small.status).toBe(200);
    expect(small.text).toContain('<p id="n">2</p>');

    const crashed = await html("/crash?n=10001");
    expect(crashed.status).toBe(500);
    expect(crashed.text).toContain("internal error");
    expectClean(crashed.text);
    expect(server.output.some((l) => l.includes("jq-web crashed on this call"))).toBe(true);

    // Before: every later jq-web page answered 500 ("memory access out of bounds") until restart.
    const again = await html("/crash?n=3");
    expect(again.status).toBe(200);
    expect(again.text).toContain('<p id="n">2</p>');
    await expectServing();
  });
});

describe("a page.jq that never ends on jq-web", () => {
  test("answers a 503 page at its bound; other requests are answered meanwhile", async () => {
    const settled: string[] = [];
    const runaway = html("/slow?forever=yes").then((r) => {
      settled.push("runaway");
      return r;
    });
    // Sent after the runaway page: before, it waited for good behind the blocked event loop.
    const health = await call(`${server.url}/health`);
    settled.push("health");
    expect(health.status).toBe(200);

    const slow = await runaway;
    expect(settled).toEqual(["health", "runaway"]);
    expect(slow.status).toBe(503);
    expect(slow.text).toContain("this page took too long to prepare");
    expectClean(slow.text);

    const quick = await html("/slow");
    expect(quick.status).toBe(200);
    expect(quick.text).toContain('<p id="n">3</p>');
    await expectServing();
  });
});

describe("a compiled page.jq that nests a value too deeply", () => {
  test("answers a 500 page rather than a RangeError; the page works for other input", async () => {
    const shallow = await html("/deep");
    expect(shallow.status).toBe(200);
    expect(shallow.text).toContain('<p id="s">[[[[]]]]</p>');

    const deep = await html("/deep?deep=yes");
    expect(deep.status).toBe(500);
    expect(deep.text).toContain("internal error");
    expectClean(deep.text);
    expect(server.output.some((l) => l.includes("value nested too deeply"))).toBe(true);
    await expectServing();
  });
});
