// The builtins that compile, with what analysis needs to know of each: the provenance of
// its outputs' numbers (see analyze.ts), whether it prints numbers, and whether it does
// arithmetic. compiler/generate/jq/emit-builtins.ts has the code for the same list (a test checks).

import type { Prov } from "./analyze.js";

export interface BuiltinSpec {
  result: (input: Prov, args: Prov[]) => Prov;
  /** Prints numbers of its input (`tostring`, `join`). */
  prints?: "input";
  arithmetic?: boolean;
}

const none = (): Prov => 0;
const comp = (): Prov => 2;
const same = (input: Prov): Prov => input;
const arg = (i: number) => (_input: Prov, args: Prov[]): Prov => args[i];

const specs: Record<string, BuiltinSpec> = {
  "empty/0": { result: none },
  "error/0": { result: none },
  "error/1": { result: none },
  "not/0": { result: none },
  "type/0": { result: none },
  "length/0": { result: comp },
  "keys/0": { result: comp },
  "keys_unsorted/0": { result: comp },
  "has/1": { result: none },
  "contains/1": { result: none },
  "startswith/1": { result: none },
  "endswith/1": { result: none },
  "test/1": { result: none },
  "any/0": { result: none },
  "all/0": { result: none },
  "any/1": { result: none },
  "all/1": { result: none },
  "any/2": { result: none },
  "all/2": { result: none },
  "to_entries/0": { result: (input) => (input | 2) as Prov },
  "from_entries/0": { result: same },
  "with_entries/1": { result: arg(0) },
  "add/0": { result: (input) => (input | 2) as Prov, arithmetic: true },
  "first/0": { result: same },
  "last/0": { result: same },
  "first/1": { result: arg(0) },
  "last/1": { result: arg(0) },
  "limit/2": { result: arg(1) },
  "tostring/0": { result: none, prints: "input" },
  "tojson/0": { result: none, prints: "input" },
  "join/1": { result: none, prints: "input" },
  "sort/0": { result: same },
  "unique/0": { result: same },
  "reverse/0": { result: same },
  "min/0": { result: same },
  "max/0": { result: same },
  "values/0": { result: same },
  "nulls/0": { result: same },
  "arrays/0": { result: same },
  "objects/0": { result: same },
  "iterables/0": { result: same },
  "booleans/0": { result: same },
  "numbers/0": { result: same },
  "strings/0": { result: same },
  "scalars/0": { result: same },
  "select/1": { result: same },
  "sort_by/1": { result: same },
  "group_by/1": { result: same },
  "unique_by/1": { result: same },
  "min_by/1": { result: same },
  "max_by/1": { result: same },
  "map/1": { result: arg(0) },
  "map_values/1": { result: arg(0) },
  "ascii_downcase/0": { result: none },
  "ascii_upcase/0": { result: none },
  "split/1": { result: none },
  "ltrimstr/1": { result: same },
  "rtrimstr/1": { result: same },
  "range/1": { result: comp },
  "range/2": { result: comp },
};

export const SUBSET: ReadonlyMap<string, BuiltinSpec> = new Map(Object.entries(specs));
