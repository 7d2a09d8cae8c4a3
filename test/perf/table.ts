// The perf table, for the terminal and for the README (Markdown).
export interface Row {
  key: string;
  /** null: not measured here (`skipped` says why). */
  value: number | null;
  target: string;
  met: boolean;
  /** Why the row has no value (e.g. no Kubernetes cluster answered). */
  skipped?: string;
  raw: Record<string, unknown>;
}

const fmt = (v: number) =>
  !Number.isFinite(v)
    ? String(v)
    : Math.abs(v) >= 1000
      ? Math.round(v).toLocaleString('en-US')
      : v.toFixed(v >= 100 ? 0 : 2);

export function formatTable(report: {
  rows: Record<string, Row>;
  cpus: number;
  commit: string | null;
  dirty: boolean | null;
  created_at: string;
}): string {
  const lines = ['| key | value | target | met |', '|---|---|---|---|'];
  const skipped: string[] = [];
  for (const r of Object.values(report.rows)) {
    if (r.value === null) skipped.push(`\`${r.key}\` skipped: ${r.skipped ?? 'not measured'}`);
    const value = r.value === null ? 'skipped' : fmt(r.value);
    lines.push(`| \`${r.key}\` | ${value} | ${r.target} | ${r.value === null ? '—' : r.met ? 'yes' : 'no'} |`);
  }
  if (skipped.length) lines.push('', ...skipped);
  const commit = report.commit
    ? `${report.commit.slice(0, 10)}${report.dirty ? ' + uncommitted changes' : ''}`
    : 'unknown';
  lines.push('', `${report.cpus} CPUs, commit ${commit}, ${report.created_at}`);
  return lines.join('\n');
}
