import { describe, expect, test } from "../../support/jest.js";
import { parseBackendsArgs } from "../../../bench/backends/args.js";
import { formatGcTable } from "../../../bench/backends/gc.js";
import { GcCollector, parseGcLine } from "../../../bench/backends/gc-trace.js";

// Lines as node 20's `--trace-gc-nvp` prints them, cut short after the fields that are read.
const SCAVENGE = (promoted: number): string =>
  `[7207:0x100012c0]     1637 ms: pause=25.1 mutator=650.2 gc=s reduce_memory=0 time_to_safepoint=0.00 ` +
  `total_size_before=23619304 total_size_after=11336296 allocated=12986232 promoted=${promoted} ` +
  `new_space_survived=647560 nodes_died_in_new=1 promotion_ratio=21.3%`;
const MARK_COMPACT =
  "[7207:0x100012c0]     2277 ms: pause=3.0 mutator=74.7 gc=mc reduce_memory=0 time_to_safepoint=0.00 " +
  "total_size_before=14858416 total_size_after=11364800 allocated=2053144 promoted=1549016 new_space_survived=0";
const MINOR_MARK_COMPACT = "[1:0x1]  10 ms: pause=1.0 gc=mmc reduce_memory=0 promoted=4096 new_space_survived=0";

describe("parseGcLine", () => {
  test("reads a scavenge's promoted bytes and knows a mark-compact", () => {
    expect(parseGcLine(SCAVENGE(3506512))).toEqual({ kind: "scavenge", promoted: 3506512 });
    expect(parseGcLine(MARK_COMPACT)).toEqual({ kind: "mark-compact" });
  });

  test("other output is not a collection", () => {
    expect(parseGcLine("svc listening on 127.0.0.1:8080")).toBeNull();
    expect(parseGcLine(MINOR_MARK_COMPACT)).toBeNull();
    expect(parseGcLine("[1:0x1] 10 ms: gc=s promoted=")).toBeNull();
  });
});

describe("GcCollector", () => {
  test("adds up what arrived since the last take, lines split across chunks included", () => {
    const collector = new GcCollector();
    collector.feed(`${SCAVENGE(100)}\nhello\n${SCAVENGE(20)}\n`);
    expect(collector.take()).toEqual({ scavenges: 2, markCompacts: 0, promotedBytes: 120 });
    const line = `${SCAVENGE(5000)}\n${MARK_COMPACT}\n`;
    collector.feed(line.slice(0, 40));
    collector.feed(line.slice(40, 200));
    expect(collector.take()).toEqual({ scavenges: 0, markCompacts: 0, promotedBytes: 0 });
    collector.feed(line.slice(200));
    expect(collector.take()).toEqual({ scavenges: 1, markCompacts: 1, promotedBytes: 5000 });
  });
});

describe("bench:backends --gc", () => {
  test("counts the three task endpoints on 8 connections, three fresh servers each", () => {
    expect(parseBackendsArgs(["--gc"])).toMatchObject({
      endpoints: ["list_tasks", "get_task", "create_task"],
      connections: 8,
      callgrind: null,
      gc: { runs: 3, warmupRequests: 2000, requests: 20_000 },
    });
    expect(parseBackendsArgs(["--gc", "--gc-runs", "5", "--gc-requests", "4000"])).toMatchObject({
      gc: { runs: 5, requests: 4000 },
    });
    expect(parseBackendsArgs([])).toMatchObject({ gc: null });
  });

  test("is one mode: its flags need it, and it takes neither callgrind nor the timed flags", () => {
    expect(() => parseBackendsArgs(["--gc-runs", "2"])).toThrow(/--gc-runs needs --gc/);
    expect(() => parseBackendsArgs(["--gc", "--callgrind"])).toThrow(/two modes/);
    expect(() => parseBackendsArgs(["--gc", "--duration", "3"])).toThrow(/--duration is a flag of the timed mode/);
    expect(() => parseBackendsArgs(["--gc", "--gc-requests", "4"])).toThrow(/--gc-requests must be a whole number from 8/);
  });

  test("the table gives every run's bytes a request and their median", () => {
    const run = (server: string, promotedBytes: number, scavenges: number) => ({
      backend: "postgres" as const,
      endpoint: "create_task" as const,
      server: server as "svc" | "fastify",
      requests: 1000,
      promotedBytes,
      scavenges,
      markCompacts: 0,
    });
    expect(formatGcTable([run("svc", 30_000, 9), run("svc", 900_000, 8), run("svc", 31_000, 9), run("fastify", 21_000, 12)]))
      .toBe(`| backend | endpoint | server | bytes promoted a request, each run | median | scavenges | mark-compacts |
|---|---|---|---|---|---|---|
| postgres | create_task | svc | 30, 900, 31 | 31 | 9, 8, 9 | 0, 0, 0 |
| postgres | create_task | fastify | 21 | 21 | 12 | 0 |`);
  });
});
