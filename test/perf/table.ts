// The perf table, for the terminal and for the README (Markdown).
export interface Row {
  key: string;
  value: number;
  target: string;
  met: boolean;
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
  for (const r of Object.values(report.rows))
    lines.push(`| \`${r.key}\` | ${fmt(r.value)} | ${r.target} | ${r.met ? 'yes' : 'no'} |`);
  const commit = report.commit
    ? `${report.commit.slice(0, 10)}${report.dirty ? ' + uncommitted changes' : ''}`
    : 'unknown';
  lines.push('', `${report.cpus} CPUs, commit ${commit}, ${report.created_at}`);
  return lines.join('\n');
}
