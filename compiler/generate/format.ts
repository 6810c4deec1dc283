import * as estree from "prettier/plugins/estree";
import * as typescript from "prettier/plugins/typescript";
import { format as prettierFormat } from "prettier/standalone";

/**
 * Prettier with fixed options, so output never depends on a user's prettier config.
 * The standalone build with just the TypeScript plugin loads in a fraction of the time
 * of prettier's main entry, which matters for a cold `svc build`.
 */
export function format(source: string): Promise<string> {
  return prettierFormat(source, {
    parser: "typescript",
    plugins: [estree, typescript],
    printWidth: 110,
    semi: true,
    singleQuote: false,
    trailingComma: "all",
    tabWidth: 2,
  });
}
