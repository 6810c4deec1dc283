import * as prettier from "prettier";

/** Prettier with fixed options, so output never depends on a user's prettier config. */
export function format(source: string): Promise<string> {
  return prettier.format(source, {
    parser: "typescript",
    printWidth: 110,
    semi: true,
    singleQuote: false,
    trailingComma: "all",
    tabWidth: 2,
  });
}
