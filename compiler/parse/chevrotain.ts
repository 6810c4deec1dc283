// Chevrotain, loaded from its single-file bundle. The package entry (lib/src/api.js)
// imports about 600 lodash-es modules and takes ~300 ms to load cold; the bundle that
// ships in the same package (lib/chevrotain.mjs, same version, same code) takes ~15 ms.
// The whole compiler must start in well under 1.5 s, so this matters. If the bundle is
// ever missing, the package entry is used: slower, never broken.

import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type * as Chevrotain from "chevrotain";

async function load(): Promise<typeof Chevrotain> {
  try {
    const entry = createRequire(import.meta.url).resolve("chevrotain");
    return (await import(new URL("../chevrotain.mjs", pathToFileURL(entry)).href)) as typeof Chevrotain;
  } catch {
    return await import("chevrotain");
  }
}

const chevrotain = await load();

export const { createToken, CstParser, EOF, generateCstDts, Lexer, tokenMatcher } = chevrotain;
