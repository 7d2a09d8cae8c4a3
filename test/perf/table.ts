// The perf table, for the terminal and for the README (Markdown).

/** When a row was measured: the time, the commit (and whether it had uncommitted changes), the load average. */
export interface Stamp {
  at: string | null;
  commit: string | null;
  dirty: boolean | null;
  /** os.loadavg() when the row's measurement ended: the 1, 5 and 15 minute load. */
  load_average: number[] | null;
}

export interface Row {
  key: string;
  /** null: not measured here (`skipped` says why). */
  value: number | null;
  target: string;
  met: boolean;
  /** Why the row has no value (e.g. no Kubernetes cluster answered). */
  skipped?: string;
  raw: Record<string, unknown>;
  measured?: Stamp;
  /** Not measured by the run that wrote the file: kept from the perf.json already there (test/perf/merge.ts). */
  carried_over?: boolean;
}

const fmt = (v: number) =>
  !Number.isFinite(v)
    ? String(v)
    : Math.abs(v) >= 1000
      ? Math.round(v).toLocaleString('en-US')
      : v.toFixed(v >= 100 ? 0 : 2);

const commitText = (commit: string | null, dirty: boolean | null) =>
  commit ? `${commit.slice(0, 10)}${dirty ? ' + uncommitted changes' : ''}` : 'unknown';

function stampText(s: Stamp | undefined): string {
  if (!s) return 'when unknown';
  const at = s.at ? s.at.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC') : 'at an unknown time';
  const load = s.load_average?.length ? `, load ${s.load_average.map((x) => x.toFixed(2)).join(' ')}` : '';
  return `${at}, commit ${commitText(s.commit, s.dirty)}${load}`;
}

export function formatTable(report: {
  rows: Record<string, Row>;
  cpus: number;
  commit: string | null;
  dirty: boolean | null;
  created_at: string;
}): string {
  const lines = ['| key | value | target | met |', '|---|---|---|---|'];
  const skipped: string[] = [];
  // Rows carried over from an earlier run, grouped by when they were measured.
  const carried = new Map<string, string[]>();
  for (const r of Object.values(report.rows)) {
    if (r.value === null) skipped.push(`\`${r.key}\` skipped: ${r.skipped ?? 'not measured'}`);
    let value = r.value === null ? 'skipped' : fmt(r.value);
    if (r.carried_over) {
      value += ' (carried over)';
      const when = stampText(r.measured);
      carried.set(when, [...(carried.get(when) ?? []), `\`${r.key}\``]);
    }
    lines.push(`| \`${r.key}\` | ${value} | ${r.target} | ${r.value === null ? '—' : r.met ? 'yes' : 'no'} |`);
  }
  if (skipped.length) lines.push('', ...skipped);
  if (carried.size) {
    lines.push('', 'Carried over from the perf.json already there (not measured by this run):');
    for (const [when, keys] of carried) lines.push(`- ${keys.join(', ')}: measured ${when}`);
  }
  lines.push('', `${report.cpus} CPUs, commit ${commitText(report.commit, report.dirty)}, ${report.created_at}`);
  return lines.join('\n');
}
