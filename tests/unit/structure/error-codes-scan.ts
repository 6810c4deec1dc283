// Finds the `throw new …Error(…)` sites of a source file that name no catalog code. A site
// names one when a string literal among its arguments (or in an options object) is a code of
// the catalog; the TypeScript parser reads the source, so a code in a comment or in the middle
// of a message does not count.

import ts from "typescript";

export interface UncodedThrow {
  file: string;
  line: number;
  text: string;
}

export function uncodedThrows(file: string, source: string, codes: ReadonlySet<string>): UncodedThrow[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: UncodedThrow[] = [];
  const namesCode = (node: ts.Node): boolean =>
    (ts.isStringLiteral(node) && codes.has(node.text)) || (ts.forEachChild(node, (child) => namesCode(child) || undefined) ?? false);
  // The thrown value itself, through `a ? b : c`, `a ?? b` and parentheses; an error passed to
  // a call (`throw unavailable(new Error(…))`) is a cause, and the call's result is what is thrown.
  const inThrow = (node: ts.Node): void => {
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return inThrow(node.expression);
    if (ts.isConditionalExpression(node)) return void [node.whenTrue, node.whenFalse].forEach(inThrow);
    if (ts.isBinaryExpression(node)) return void [node.left, node.right].forEach(inThrow);
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text.endsWith("Error")) {
      if (!(node.arguments ?? []).some(namesCode)) {
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        found.push({ file, line, text: node.getText(sf).split("\n")[0] });
      }
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isThrowStatement(node)) inThrow(node.expression);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
