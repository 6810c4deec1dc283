import type { ActionModel, AppModel, QueryModel, RouteModel } from "../model/model.js";

/**
 * Which arguments of each query and action may arrive as text inside a JSON call: path
 * parameters of the routes that call it, and path, query and header values route files pass it.
 * Their validators accept text for them ("42" for an int) where a JSON value must be typed.
 */
export function assignTextArgs(
  endpoints: readonly (QueryModel | ActionModel)[],
  routes: readonly RouteModel[],
  app: AppModel | null,
): void {
  const text = new Map<string, Set<string>>();
  const add = (module: string, name: string, arg: string) => {
    const key = `${module}.${name}`;
    const set = text.get(key) ?? new Set<string>();
    set.add(arg);
    text.set(key, set);
  };
  for (const r of routes) {
    for (const s of r.segments) if (s.startsWith(":")) add(r.target.module, r.target.name, s.slice(1));
  }
  for (const file of app?.routeFiles ?? []) {
    for (const block of file.blocks) {
      const step = block.step;
      if (!step) continue;
      for (const a of step.args) {
        const v = a.value;
        const text = (v.kind === "input" && (v.from === "params" || v.from === "query")) || v.kind === "header" || v.kind === "baseUrl";
        if (text) add(step.target.module, step.target.name, a.name);
      }
    }
  }
  for (const e of endpoints) {
    const args = text.get(`${e.module}.${e.name}`);
    e.textArgs = args ? e.params.map((p) => p.name).filter((n) => args.has(n)) : [];
  }
}
