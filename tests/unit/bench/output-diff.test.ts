// bench/output-diff.ts: the edit it makes, the diff it counts, and what it calls data.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "../../support/jest.js";
import { addField, diffFiles, shareOf } from "../../../bench/output-diff.js";

describe("bench:output", () => {
  test("adds the field after the resource's last field, before its indexes", () => {
    const source = "resource task {\n  id: id\n  done: bool\n\n  index (done)\n}\nresource other {\n  id: id\n}\n";
    expect(addField(source, "task", "  note: text?")).toBe(
      "resource task {\n  id: id\n  done: bool\n  note: text?\n\n  index (done)\n}\nresource other {\n  id: id\n}\n",
    );
    expect(() => addField(source, "missing", "  note: text?")).toThrow("no `resource missing {` line");
  });

  test("counts the changed lines and hunks of diff -u, a missing file as empty", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-output-diff-test-"));
    try {
      const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
      writeFileSync(join(dir, "a"), `${lines.join("\n")}\n`);
      const changed = [...lines];
      changed[2] = "changed 2";
      changed[25] = "changed 25";
      writeFileSync(join(dir, "b"), `${changed.join("\n")}\n`);
      expect(diffFiles(join(dir, "a"), join(dir, "b"))).toEqual({ changedLines: 4, hunks: 2 });
      expect(diffFiles(join(dir, "a"), join(dir, "a"))).toEqual({ changedLines: 0, hunks: 0 });
      expect(diffFiles(join(dir, "none"), join(dir, "a"))).toEqual({ changedLines: 30, hunks: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("data is the lines of table and statement specs; svc's own are those named svc_…", () => {
    const text = [
      'import rt = require("svc/runtime");',
      "",
      'const taskTable: rt.TableSpec = {\n  name: "task",\n  ddl: {},\n};',
      'const svcThingsTable: rt.TableSpec = {\n  name: "svc_things",\n  ddl: {},\n};',
      'export const getSql: rt.StatementSpec = { name: "task.get", sql: {} };',
      "function get(): number {\n  return 1;\n}",
    ].join("\n");
    expect(shareOf("server.ts", text)).toEqual({ file: "server.ts", lines: 13, data: 9, svcOwned: 4 });
  });
});
