// clamp, min and max (docs/language.md §2.3, Built-in functions). Their arguments are numbers,
// never null: the analyzer checks that, and a json member is checked when it is read.

/** `x` brought into [lo, hi]; when `lo` is above `hi`, `hi` wins. */
export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(Math.max(x, lo), hi);
}

export function min(...xs: number[]): number {
  return Math.min(...xs);
}

export function max(...xs: number[]): number {
  return Math.max(...xs);
}
