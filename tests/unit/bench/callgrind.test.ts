import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "../../support/jest.js";
import { parseBenchArgs } from "../../../bench/args.js";
import { parseBackendsArgs } from "../../../bench/backends/args.js";
import { dumpInstructions, dumpNumber, dumpThread, newestDump, readDump } from "../../../bench/callgrind/dump.js";
import { countRatios, formatCountTable, PAGE_ENDPOINT, pageLine, pageToList } from "../../../bench/callgrind/report.js";
import type { CountRecord } from "../../../bench/callgrind/report.js";
import { settleVerdict } from "../../../bench/callgrind/settle.js";

// The head and tail of a dump as callgrind 3.19 writes it for `callgrind_control -d`.
const DUMP = `# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 10235
cmd:  node --single-threaded s.mjs
part: 1

desc: Timerange: Basic block 0 - 160484900
desc: Trigger: dump

positions: line
events: Ir
summary: 97060252


ob=(10) /usr/bin/node
fl=(193) /home/iojs/build/ws/out/../deps/uv/src/unix/linux.c
fn=(7386) uv__epoll_ctl_prep
1151 900
+6 100

totals: 97193793
`;

describe("dumpInstructions", () => {
  test("reads the totals line, the sum of the file's costs", () => {
    expect(dumpInstructions(DUMP)).toBe(97193793);
  });

  test("falls back to the summary line when there is no totals line", () => {
    expect(dumpInstructions(DUMP.replace(/^totals:.*$/m, ""))).toBe(97060252);
  });

  test("picks Ir out of several events, wherever it stands", () => {
    const text = "events: Dr Ir Dw\nsummary: 5 6 7\ntotals: 10 20 30\n";
    expect(dumpInstructions(text)).toBe(20);
  });

  test("an event left off the end of the totals line counted nothing", () => {
    expect(dumpInstructions("events: Dr Ir\ntotals: 10\n")).toBe(0);
  });

  test.each([
    ["not a dump", "hello\n", /no `events:` line/],
    ["no instruction counts", "events: Dr\ntotals: 5\n", /counts no instructions/],
    ["cut short", "events: Ir\n\nfn=(1) main\n3 4\n", /neither a `totals:` nor a `summary:`/],
    ["garbage total", "events: Ir\ntotals: 12x\n", /not a number: "12x"/],
  ])("%s is an error, not a figure", (_what, text, message) => {
    expect(() => dumpInstructions(text)).toThrow(message);
  });
});

describe("dump file names", () => {
  test("dumpNumber: the n of cg.<pid>.<n>, for that pid only", () => {
    expect(dumpNumber("cg.10235.3", 10235)).toBe(3);
    expect(dumpNumber("cg.10235.12", 10235)).toBe(12);
    expect(dumpNumber("cg.10235", 10235)).toBeNull();
    expect(dumpNumber("cg.999.3", 10235)).toBeNull();
    expect(dumpNumber("cg.10235.3.tmp", 10235)).toBeNull();
  });

  test("with --separate-threads=yes: a file per thread, cg.<pid>.<n>-<thread>, numbered as the dump it belongs to", () => {
    expect(dumpNumber("cg.10235.3-01", 10235)).toBe(3);
    expect(dumpNumber("cg.10235.3-12", 10235)).toBe(3);
    expect(dumpNumber("cg.10235-01", 10235)).toBeNull();
    expect(dumpThread("cg.10235.3-01")).toBe(1);
    expect(dumpThread("cg.10235.3-12")).toBe(12);
    expect(dumpThread("cg.10235.3")).toBeNull();
  });

  test("newestDump: the highest-numbered dump newer than the last one read", () => {
    const files = ["cg.7", "cg.7.1", "cg.7.10", "cg.7.2", "cg.8.11", "notes.txt"];
    expect(newestDump(files, 7, 0)).toBe("cg.7.10");
    expect(newestDump(files, 7, 10)).toBeNull();
    expect(newestDump(files, 8, 0)).toBe("cg.8.11");
    expect(newestDump([], 7, 0)).toBeNull();
  });
});

describe("readDump", () => {
  const dump = (totals: number | null) => `events: Ir\nfn=(1) main\n3 4\n${totals === null ? "" : `totals: ${totals}\n`}`;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-dumps-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("threads apart: every thread's file of the dump summed, the first thread's apart as the serving thread's", () => {
    writeFileSync(join(dir, "cg.7.2-01"), dump(1000));
    writeFileSync(join(dir, "cg.7.2-02"), dump(0));
    writeFileSync(join(dir, "cg.7.2-12"), dump(250));
    writeFileSync(join(dir, "cg.7.1-01"), dump(99_999));
    writeFileSync(join(dir, "cg.8.2-01"), dump(99_999));
    const read = readDump(dir, 7, 2);
    expect(read).toEqual({ files: expect.arrayContaining(["cg.7.2-01", "cg.7.2-02", "cg.7.2-12"]), total: 1250, serving: 1000 });
    expect(read!.files).toHaveLength(3);
  });

  test("one file of all threads: its total, no serving thread's figure", () => {
    writeFileSync(join(dir, "cg.7.2"), dump(1000));
    expect(readDump(dir, 7, 2)).toEqual({ files: ["cg.7.2"], total: 1000, serving: null });
  });

  test("not yet whole while a file lacks its totals line, or there is none", () => {
    writeFileSync(join(dir, "cg.7.2-01"), dump(1000));
    writeFileSync(join(dir, "cg.7.2-02"), dump(null));
    expect(readDump(dir, 7, 2)).toBeNull();
    expect(readDump(dir, 7, 3)).toBeNull();
  });
});

describe("settleVerdict", () => {
  const rule = { tolerance: 0.02, maxBatches: 4 };

  test("one batch is never enough", () => {
    expect(settleVerdict([100_000], rule)).toBe("more");
  });

  test("two batches in a row within the tolerance settle it", () => {
    expect(settleVerdict([300_000, 190_000, 188_000], rule)).toBe("settled");
    expect(settleVerdict([200_000, 204_000], rule)).toBe("settled");
  });

  test("a figure still moving asks for more, until the cap", () => {
    expect(settleVerdict([300_000, 250_000], rule)).toBe("more");
    expect(settleVerdict([300_000, 250_000, 210_000], rule)).toBe("more");
    expect(settleVerdict([300_000, 250_000, 210_000, 180_000], rule)).toBe("gave-up");
  });

  test("only the last two batches count", () => {
    // Batches 1 and 2 agreed, but this is asked after batch 3, which moved.
    expect(settleVerdict([200_000, 200_000, 150_000], { tolerance: 0.02, maxBatches: 8 })).toBe("more");
  });

  test("settling on the last allowed batch is settled, not given up", () => {
    expect(settleVerdict([300_000, 200_000, 201_000], { tolerance: 0.02, maxBatches: 3 })).toBe("settled");
  });

  test("a batch with failed requests is no figure: it neither settles nor is compared", () => {
    expect(settleVerdict([null, 200_000], rule)).toBe("more");
    expect(settleVerdict([200_000, null], rule)).toBe("more");
    expect(settleVerdict([200_000, null, 200_000], rule)).toBe("more");
    expect(settleVerdict([null, 200_000, 201_000], rule)).toBe("settled");
    // Failed batches still count toward the cap, so a server that keeps failing ends.
    expect(settleVerdict([null, null, null, null], rule)).toBe("gave-up");
  });

  test("just past the tolerance is not settled", () => {
    expect(settleVerdict([100_000, 102_001], rule)).toBe("more");
    expect(settleVerdict([100_000, 102_000], rule)).toBe("settled");
  });
});

describe("parseBenchArgs with --callgrind", () => {
  test("without --callgrind the timed mode is as before", () => {
    const options = parseBenchArgs([]);
    expect(options).toMatchObject({ rounds: 5, durationSeconds: 4, connections: 10, callgrind: null });
  });

  test("the defaults: 2,000 warm-up, 3,000 counted, 2 %, 8 connections, svc at its own log level", () => {
    expect(parseBenchArgs(["--callgrind"])).toMatchObject({
      connections: 8,
      callgrind: {
        warmupRequests: 2000,
        requests: 3000,
        counts: 3,
        settle: { tolerance: 0.02, maxBatches: 8 },
        svcLogLevel: null,
        keepDumps: null,
      },
    });
  });

  test("every callgrind flag changes its figure", () => {
    const options = parseBenchArgs([
      "--callgrind",
      "--warmup-requests",
      "500",
      "--requests",
      "1000",
      "--counts",
      "5",
      "--settle",
      "0.5",
      "--max-warmups",
      "3",
      "--svc-log-level",
      "warn",
      "--keep-dumps",
      "/tmp/dumps",
      "--connections",
      "4",
      "--skip-svc",
    ]);
    expect(options).toMatchObject({
      connections: 4,
      skipSvc: true,
      callgrind: {
        warmupRequests: 500,
        requests: 1000,
        counts: 5,
        settle: { tolerance: 0.005, maxBatches: 3 },
        svcLogLevel: "warn",
        keepDumps: "/tmp/dumps",
      },
    });
  });

  test.each([
    [["--requests", "100"], /--requests needs --callgrind/],
    [["--callgrind", "--duration", "3"], /--duration is a flag of the timed mode/],
    [["--callgrind", "--svc-workers", "2"], /--svc-workers is a flag of the timed mode/],
    [["--callgrind", "--requests", "4"], /--requests \(4\) must be at least --connections \(8\)/],
    [["--callgrind", "--warmup-requests", "0"], /--warmup-requests must be a whole number from 1/],
    [["--callgrind", "--settle", "two"], /--settle must be a percentage/],
    [["--callgrind", "--counts", "0"], /--counts must be a whole number from 1/],
    [["--callgrind", "--settle", "101"], /--settle must be a percentage/],
    [["--callgrind", "--max-warmups", "0"], /--max-warmups must be a whole number from 1/],
    [["--callgrind", "--svc-log-level", "loud"], /--svc-log-level must be one of error, warn, info, debug, trace/],
    [["--callgrind", "--keep-dumps", ""], /--keep-dumps needs a directory/],
  ])("%j is refused: %s", (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });
});

describe("parseBackendsArgs", () => {
  test("the timed mode keeps its defaults and refuses health", () => {
    expect(parseBackendsArgs([])).toMatchObject({
      backends: ["postgres", "mysql"],
      endpoints: ["list_tasks", "create_task"],
      connections: 10,
      callgrind: null,
    });
    expect(() => parseBackendsArgs(["--endpoints", "health"])).toThrow(/--endpoints: health; use list_tasks/);
  });

  test("--callgrind counts the three task endpoints unless told otherwise; health may be asked for", () => {
    expect(parseBackendsArgs(["--callgrind", "--endpoints", "health,list_tasks"])).toMatchObject({
      endpoints: ["health", "list_tasks"],
    });
    expect(parseBackendsArgs(["--callgrind"])).toMatchObject({
      endpoints: ["list_tasks", "get_task", "create_task"],
      connections: 8,
      callgrind: { warmupRequests: 2000, requests: 3000 },
    });
    expect(
      parseBackendsArgs(["--callgrind", "--backends", "mysql", "--endpoints", "list_tasks,create_task,list_tasks"]),
    ).toMatchObject({ backends: ["mysql"], endpoints: ["list_tasks", "create_task"] });
  });

  test("timed flags are refused with --callgrind", () => {
    expect(() => parseBackendsArgs(["--callgrind", "--rounds", "2"])).toThrow(/--rounds is a flag of the timed mode/);
  });
});

describe("the count table", () => {
  const record = (
    server: string,
    endpoint: string,
    perRequest: number,
    settled = true,
    matchesWarmup = true,
  ): CountRecord => ({
    server,
    endpoint,
    perRequest,
    settled,
    matchesWarmup,
    warmups: [perRequest * 1.5, perRequest],
    requests: 3000,
    counts: [perRequest * 1.01, perRequest, perRequest * 0.99],
    durationsMs: [1000, 1000, 1000],
    servingCounts: null,
    servingPerRequest: null,
  });
  const records = [
    record("svc", "health", 189_391),
    record("bare", "health", 152_027),
    record("fastify", "health", 171_487),
    record("svc", "list_tasks", 1_756_502),
    record("bare", "list_tasks", 1_754_010, false),
    record("fastify", "list_tasks", 1_710_728, true, false),
  ];
  const columns = [
    { server: "svc", label: "svc" },
    { server: "bare", label: "bare node:http" },
    { server: "fastify", label: "Fastify 5" },
  ];

  test("ratios are svc ÷ each baseline", () => {
    const ratios = countRatios(records, ["bare", "fastify"]);
    expect(ratios.map((r) => [r.endpoint, r.baseline, Number(r.ratio.toFixed(2))])).toEqual([
      ["health", "bare", 1.25],
      ["health", "fastify", 1.1],
      ["list_tasks", "bare", 1.0],
      ["list_tasks", "fastify", 1.03],
    ]);
  });

  test("one row per endpoint, unsettled and drifting figures marked, missing ones n/a", () => {
    const table = formatCountTable(records, ["health", "list_tasks", "create_task"], columns);
    expect(table.split("\n")).toEqual([
      "endpoint                    svc  bare node:http   Fastify 5  svc/bare  svc/Fastify",
      "--------------------  ---------  --------------  ----------  --------  -----------",
      "health                  189,391         152,027     171,487      1.25         1.10",
      "list_tasks (50 rows)  1,756,502      1,754,010*  1,710,728†      1.00         1.03",
      "create_task                 n/a             n/a         n/a       n/a          n/a",
      "* warm-up had not settled when counting began (see --max-warmups)",
      "† the count differs from the last warm-up batch by more than the tolerance (a major GC in one of them?)",
    ]);
  });

  test("svc's page is a row of its own and is set against svc's list: list ÷ page", () => {
    const withPage = [...records, record("svc", PAGE_ENDPOINT, 2_927_503)];
    expect(pageToList(withPage)).toBeCloseTo(0.6, 5);
    expect(pageLine(withPage)).toBe("/tasks page, requests per instruction as a share of list_tasks': 0.60 (target: at least 0.60)\n");
    expect(formatCountTable(withPage, [PAGE_ENDPOINT], columns).split("\n")[2]).toBe(
      "/tasks page (50 rows)  2,927,503             n/a        n/a       n/a          n/a",
    );
    expect(pageToList(records)).toBeNull();
    expect(pageLine(records)).toBe("");
  });
});
