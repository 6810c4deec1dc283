// The run-time side of compiled page.jq programs (compiler/jq emits calls to these as
// `rt.jq.<name>`), and the jq-web fallback for programs outside the compiled subset.
// Every helper follows jq 1.7.1 (the version jq-web 0.6 ships): its value ordering, its
// error cases, and its two ways of printing a number (see `numText`).

export { caught, error, fail, JqError, NONE, pass, Passthrough, runCompiled } from "./errors.js";
export { keysOf, typeOf } from "./values.js";
export { dump, finite, format, numText, tostring } from "./print.js";
export { cmp, equals, strCmp } from "./order.js";
export { divide, index, indexOpt, iter, iterOpt, minus, modulo, negate, object, plus, split, times } from "./ops.js";
export {
  addAll, asciiDowncase, asciiUpcase, contains, endsWith, fromEntries, groupBy, has, join, keys, length, ltrimstr,
  mapValues, minMax, rangeBounds, reverse, rtrimstr, sort, sortBy, startsWith, testText, toEntries,
} from "./builtins.js";
export { JQ_FALLBACK_TIMEOUT_MS, JqWeb, JqWebFailure, loadJqWeb, type JqRunner } from "./web.js";
