// Every fixture with diagnostics (fixtures/error-*, and the others whose expected/ has a
// diagnostics.txt: page, jq and route-file errors, warnings) gives, through `svc lsp`, exactly the
// diagnostics `svc check` gives: the same codes, severities, messages and places, in the
// same files. One server runs the whole suite; each fixture is added as a workspace folder.

import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { resolveTarget } from "../../compiler/cli/target.js";
import { check } from "../../compiler/index.js";
import { rangeOf, toLspDiagnostic } from "../../compiler/lsp/convert.js";
import { LspClient, uri } from "../../bench/lsp/client.js";
import { repoRoot } from "../support/paths.js";

const FIXTURES = path.join(repoRoot, "fixtures");
const cases = readdirSync(FIXTURES)
  .filter((d) => d.startsWith("error-") || existsSync(path.join(FIXTURES, d, "expected", "diagnostics.txt")))
  .sort();

let client: LspClient;

beforeAll(async () => {
  client = new LspClient();
  await client.initialize([]);
});

afterAll(async () => {
  await client.stop();
});

describe("the server's diagnostics are svc check's", () => {
  test("there are diagnostic fixtures", () => {
    expect(cases.filter((c) => c.startsWith("error-")).length).toBeGreaterThanOrEqual(30);
    expect(cases).toEqual(expect.arrayContaining(["app-error-jq", "app-error-pages", "app-error-route-files"]));
  });

  test.each(cases)("%s", async (name) => {
    const input = path.join(FIXTURES, name, "input");
    const target = resolveTarget({ positional: input });
    if (typeof target === "string") throw new Error(target);
    const expected = new Map<string, unknown[]>();
    const result = check(target);
    for (const d of result.diagnostics) {
      const key = uri(path.resolve(result.root, d.file));
      expected.set(key, [...(expected.get(key) ?? []), toLspDiagnostic(d)]);
    }
    expect(result.diagnostics.length).toBeGreaterThan(0);

    const checked = client.nextCheck(result.root);
    await client.addFolder(input);
    await checked;
    const actual = new Map([...client.diagnostics].filter(([u, ds]) => u.startsWith(uri(input) + "/") && ds.length > 0));
    expect(new Map([...actual].sort())).toEqual(new Map([...expected].sort()));
    // The places are the compiler's spans: line and column less one.
    const first = result.diagnostics.find((d) => d.span !== null);
    if (first) expect(actual.get(uri(path.resolve(result.root, first.file)))?.[0]?.range).toEqual(rangeOf(first.span));
  });
});
