// Which text names a run in compare's and history's charts and tables (docs/reports.md#comparing-runs):
// its `--label`; else its agent id, when no other run compared has that agent; else the shortest
// suffix of its run id, in whole `-`-separated parts, that no other run's id ends with (of its
// folder's name, when two runs have one id: a copied folder). A name is
// short, and it is the part that tells two runs apart (a long name cut to fit loses just that part).

interface NamedRun {
  /** The run id (run.json `run_id`). */
  id: string;
  label?: string | null;
  agent?: string | null;
  /** What stands for the id when another run has the same id (copied run folders): its folder's name. */
  folder?: string | null;
}

/** One name per run, in order, all different. */
export function runNames(runs: ReadonlyArray<NamedRun>): string[] {
  const ids = runs.map((r) => r.id);
  const suffixes = uniqueSuffixes(runs.map((r) => (count(ids, r.id) > 1 && r.folder ? r.folder : r.id)));
  const agents = runs.map((r) => r.agent ?? null);
  const base = runs.map((r, i) => {
    if (r.label) return r.label;
    const agent = agents[i];
    if (agent && agents.filter((a) => a === agent).length === 1) return agent;
    return suffixes[i];
  });
  // A label two runs share: each with its suffix; anything still alike: with its position.
  const named = base.map((n, i) => (count(base, n) > 1 && runs[i].label ? `${n} · ${suffixes[i]}` : n));
  return named.map((n, i) => (count(named, n) > 1 ? `${n} #${i + 1}` : n));
}

/**
 * For each id, its shortest suffix of whole `-`-separated parts that is not a suffix (in whole
 * parts) of any other id; the whole id when there is none (an id that another ends with).
 */
export function uniqueSuffixes(ids: ReadonlyArray<string>): string[] {
  const parts = ids.map((id) => id.split('-'));
  return parts.map((mine, i) => {
    for (let k = 1; k <= mine.length; k++) {
      const suffix = mine.slice(-k).join('-');
      const taken = parts.some((other, j) => j !== i && other.length >= k && other.slice(-k).join('-') === suffix);
      if (!taken) return suffix;
    }
    return ids[i];
  });
}

const count = (xs: ReadonlyArray<string>, x: string) => xs.filter((y) => y === x).length;
