// The pieces of `npm run bench:tfb` that need no server: TFB's `queries` rule, the fortunes
// page the baselines write, the command line and the report's ratios.
import { describe, expect, test } from "../../support/jest.js";
import { parseTfbArgs } from "../../../bench/tfb/args.js";
import { FORTUNES } from "../../../bench/tfb/data.js";
import { fortunesDifference } from "../../../bench/tfb/fortune-html.js";
import { escapeHtml, fortunesHtml, queriesParam } from "../../../bench/tfb/rules.js";
import { formatTable } from "../../../bench/tfb/table.js";
import { tfbRequest } from "../../../bench/tfb/targets.js";

describe("TFB's rules", () => {
  test.each([
    [undefined, 1],
    ["", 1],
    ["foo", 1],
    ["0", 1],
    ["-3", 1],
    ["1", 1],
    ["20", 20],
    ["500", 500],
    ["501", 500],
    ["12abc", 12],
  ])("queries=%p is %p", (raw, n) => {
    expect(queriesParam(raw)).toBe(n);
  });

  test("the baselines' fortunes page is TFB's, escaped", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    const page = fortunesHtml(FORTUNES);
    expect(fortunesDifference(page)).toBeNull();
    expect(page).toContain("<tr><td>11</td><td>&lt;script&gt;alert(&quot;This should not be displayed in a browser alert box.&quot;);&lt;/script&gt;</td></tr>");
    expect(page.indexOf("<td>0</td>")).toBeLessThan(page.indexOf("<td>3</td>"));
    expect(page.endsWith("<tr><td>12</td><td>フレームワークのベンチマーク</td></tr></table></body></html>")).toBe(true);
  });
});

describe("bench:tfb", () => {
  test("the command line", () => {
    expect(parseTfbArgs([])).toMatchObject({ targets: null, tests: ["json", "db", "queries", "fortunes", "updates", "plaintext"], rounds: 3, queries: 20, callgrind: null });
    expect(parseTfbArgs(["--targets", "bare,svc", "--tests", "db,updates", "--queries", "5"])).toMatchObject({ targets: ["bare", "svc"], tests: ["db", "updates"], queries: 5 });
    expect(() => parseTfbArgs(["--targets", "express"])).toThrow(/--targets: unknown "express"/);
    expect(() => parseTfbArgs(["--tests", "cached"])).toThrow(/--tests: unknown "cached"/);
    expect(() => parseTfbArgs(["--queries", "501"])).toThrow(/--queries must be a whole number from 1 to 500/);
    expect(() => parseTfbArgs(["--callgrind", "--rounds", "2"])).toThrow(/--rounds is a flag of the timed mode/);
  });

  test("requests: TFB's paths, queries= appended where it goes", () => {
    const prepared = { spec: () => { throw new Error("unused"); }, ownsSchema: false };
    expect(tfbRequest("queries", prepared, 20)).toEqual({ method: "GET", path: "/queries?queries=20" });
    expect(tfbRequest("fortunes", prepared, 20)).toEqual({ method: "GET", path: "/fortunes" });
    expect(tfbRequest("updates", { ...prepared, paths: { updates: "/api/tfb:updates?queries=" } }, 5)).toEqual({ method: "GET", path: "/api/tfb:updates?queries=5" });
  });

  test("the report: each target's ratio to the reference", () => {
    const row = (target: string, reqPerSec: number, cpu: number) => ({
      test: "db",
      target,
      reqPerSec,
      reqPerSecRange: [reqPerSec, reqPerSec] as [number, number],
      p99Ms: 1,
      cpuUsPerRequest: cpu,
      cpuPercent: 50,
      failed: 0,
    });
    const text = formatTable([row("svc", 1200, 80), row("fastify", 1000, 100), row("bare", 1500, 60)], ["db"], ["svc", "fastify", "bare"], "fastify");
    expect(text).toMatch(/req\/s svc\/fastify\s+CPU svc\/fastify\s+req\/s bare\/fastify\s+CPU bare\/fastify/);
    expect(text).toMatch(/db\s+1\.20\s+0\.80\s+1\.50\s+0\.60/);
    const counted = formatTable(
      [{ test: "json", target: "svc", instructions: 50_000, settled: false, failed: 0 }, { test: "json", target: "bare", instructions: 40_000, settled: true, failed: 0 }],
      ["json"],
      ["svc", "bare"],
      "bare",
    );
    expect(counted).toMatch(/json\s+svc\s+50,000\*/);
    expect(counted).toMatch(/json\s+1\.25/);
  });
});
