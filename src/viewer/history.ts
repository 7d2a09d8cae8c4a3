// The history page's script: the pass-rate trend with 95% bands across runs, and the table of runs.
import { trend } from './chart-lines.ts';
import { mountChart } from './charts.ts';
import { el, pageData, pct } from './dom.ts';
import { Table } from './table.ts';
import type { HistoryData, HistoryRow } from './types.ts';

const data = pageData<HistoryData>();
const rows = data.rows;
let gate: number | null = null;
for (const r of rows) if (r.gate) gate = r.gate.threshold;
const box = document.getElementById('charts');
const names = data.names ?? rows.map((r) => r.name);
const points = rows.map((r, i) => ({
  label: names[i],
  rate: r.pass_rate,
  low: r.pass_rate_ci95 ? r.pass_rate_ci95[0] : null,
  high: r.pass_rate_ci95 ? r.pass_rate_ci95[1] : null,
  note: r.version_changed ? 'version ' + r.version : '',
}));
if (box)
  mountChart(
    box,
    'chart-trend',
    'pass rate across runs, with 95% intervals',
    trend(points, gate),
    'oldest first; a dashed line at a run marks a change of benchmark version (numbers across it are not strictly comparable)',
  );
new Table<HistoryRow>({
  id: 'history',
  rows: () => rows,
  sort: null,
  columns: [
    {
      key: 'name',
      label: 'run',
      get: (r) => r.name,
      render: (r) => [el('b', null, names[rows.indexOf(r)]), el('div', 'note', r.name)],
    },
    { key: 'started', label: 'started', get: (r) => r.started_at },
    {
      key: 'version',
      label: 'version',
      get: (r) => (r.version === null ? '?' : r.version) + (r.version_changed ? ' *' : ''),
    },
    {
      key: 'agent',
      label: 'agent',
      get: (r) => (r.agent_sha256 ? r.agent_sha256.slice(0, 12) : '-') + (r.agent_changed ? ' ^' : ''),
    },
    { key: 'status', label: 'status', get: (r) => r.status },
    {
      key: 'trials',
      label: 'trials',
      num: true,
      get: (r) => r.trials,
      render: (r) => (r.trials === null ? '-' : String(r.trials)),
    },
    { key: 'pass', label: 'pass rate', num: true, get: (r) => r.pass_rate, render: (r) => pct(r.pass_rate) },
    {
      key: 'ci',
      label: '95% CI',
      num: true,
      get: (r) => (r.pass_rate_ci95 ? r.pass_rate_ci95[0] : null),
      render: (r) => (r.pass_rate_ci95 ? pct(r.pass_rate_ci95[0]) + '\u2013' + pct(r.pass_rate_ci95[1]) : 'n/a'),
    },
    {
      key: 'gate',
      label: 'gate',
      get: (r) => (r.gate ? (r.gate.passed ? 'PASSED' : 'FAILED') + (r.gate.detail ? ': ' + r.gate.detail : '') : '-'),
    },
    {
      key: 'note',
      label: 'note',
      cls: 'reason',
      get: (r) => [r.run_note, r.note].filter(Boolean).join(' \u00b7 '),
    },
  ],
}).refresh(true);
document.body.setAttribute('data-ready', '1');
