// jose, loaded by a server whose [auth] has a JWT and by no other: it is 62 modules, about a
// third of what loading the runtime costs a server at start, and most servers sign nothing.
// The Jwt of such a server starts loading it when made, at start, so it is there before the
// first token; each use takes the loaded module without waiting.

type Jose = typeof import("jose");

let loaded: Jose | null = null;
let loading: Promise<Jose> | null = null;

/** jose, once loaded; the first call starts loading it. */
export function jose(): Jose | Promise<Jose> {
  if (loaded !== null) return loaded;
  loading ??= import("jose").then((m) => (loaded = m));
  return loading;
}

/** Starts loading jose (a Jwt is being made); a failure shows where it is first used. */
export function preloadJose(): void {
  const pending = jose();
  if (pending instanceof Promise) pending.catch(() => undefined);
}
