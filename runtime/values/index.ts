// Values made in code (docs/language.md §2.3): random numbers, text read as numbers and
// bools, bounds, and the lists a collecting `for` builds. Generated actions call these as
// `rt.values.randomInt(1, 10000)`; an app that uses none of them runs none of this.

export { random, randomInt } from "./random.js";
export { parseInt, parseFloat, parseBool } from "./parse.js";
export { clamp, min, max } from "./numbers.js";
export { range, collect } from "./lists.js";
