// Primary keys: the start-time check of a live table's key, and the ids `uuid4()`/`uuid7()` make.

export { keyProblems, type LiveKey } from "./live.js";
export { uuid4, uuid7 } from "./uuid.js";
