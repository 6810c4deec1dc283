/** `list_tasks` → `ListTasks`, `task` → `Task`: names for generated TypeScript types. */
export function pascalCase(name: string): string {
  return name
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join("");
}

/** `list_tasks` → `listTasks`. */
export function camelCase(name: string): string {
  const p = pascalCase(name);
  return p[0].toLowerCase() + p.slice(1);
}

/**
 * Names every object answers to: an argument called `constructor` would read
 * Object.prototype's in a JSON body, so such names are refused at build time.
 */
export const RESERVED = new Set([...Object.getOwnPropertyNames(Object.prototype), "prototype"]);
