// "did you mean `x`?" for an unknown key (docs/configuration.md): the known key nearest by edit distance,
// when it is close enough to be a typo rather than a different word.

/** Edit distance: insertions, deletions, substitutions and swaps of two neighbours (`nmae`), each costing 1. */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      cur.push(d);
    }
    [before, prev] = [prev, cur];
  }
  return prev[b.length];
}

/**
 * The known key closest to `key` (case aside), if at most a third of its length away (at least 1, at most
 * 3 edits): `threshhold` → `threshold`, `timout_s` → `timeout_s`; `colour` → none of `metric`, `threshold`.
 */
export function closest(key: string, known: readonly string[]): string | null {
  const limit = Math.min(3, Math.max(1, Math.floor(key.length / 3)));
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return bestD <= limit ? best : null;
}
