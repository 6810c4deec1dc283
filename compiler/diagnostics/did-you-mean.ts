// The "did you mean" hints of every phase (names in .svc files, SQL, svc.toml, pages, jq)
// come from this one measure, so a typo is judged the same wherever it is made.

/**
 * Edit distance counting a swap of two neighbours as one edit (optimal string alignment),
 * since `titel` for `title` is one typo; case-insensitive, as SQL names compare and as a
 * user misremembers a name's case.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= t.length; j++) d[0][j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[s.length][t.length];
}

/**
 * The candidate nearest to `name`, when it is near enough to be a likely typo (a third of
 * its letters, at least one); ties go to the first.
 */
export function closest(name: string, candidates: Iterable<string>): string | null {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = editDistance(name, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
