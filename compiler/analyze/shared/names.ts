/** The candidate closest to `name` by edit distance, when it is close enough to be a likely typo. */
export function closest(name: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const dist = editDistance(name.toLowerCase(), c.toLowerCase());
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  const allowed = Math.max(1, Math.floor(name.length / 3));
  return bestDistance <= allowed ? best : null;
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

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
