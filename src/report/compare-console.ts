// Plain-text tables for `benchrig compare` and `benchrig history` (colour only when asked: a TTY).
import type { CheckDelta } from './compare-checks.ts';
import type { Comparison, MetricDelta, RunRef, TaskChange, TaskCost, TaskSide } from './compare.ts';
import type { HistoryRow } from './history.ts';
import type { PairedDiff } from './paired.ts';

type Paint = (code: string, text: string) => string;
const painter = (color: boolean): Paint =>
  color ? (code, text) => `\u001b[${code}m${text}\u001b[0m` : (_c, text) => text;
const C = { bold: '1', dim: '2', red: '31', green: '32', yellow: '33' } as const;

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
const RATE_METRICS = new Set([
  'pass_rate',
  'pass_all_k',
  'pass_at_k',
  'agent_error_rate',
  'timeout_rate',
  'ungradable_rate',
  'infra_error_rate',
]);
const LOWER_IS_BETTER = new Set([
  'agent_error_rate',
  'timeout_rate',
  'ungradable_rate',
  'infra_error_rate',
  'cost_usd',
]);
const usd = (x: number | null) => (x === null ? 'n/a' : `$${x.toFixed(4)}`);
const LIST_MAX = 50;

function table(rows: string[][], indent = '  '): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => visible(r[i]).length)));
  return rows.map(
    (r) =>
      indent +
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat(widths[i] - visible(cell).length)))
        .join('  ')
        .trimEnd(),
  );
}
// eslint-disable-next-line no-control-regex -- ANSI escapes start with ESC (a control character)
const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

function sideText(s: TaskSide | null): string {
  if (!s) return 'absent';
  const statuses = Object.entries(s.statuses)
    .filter(([, n]) => n)
    .map(([k, n]) => (s.trials > 1 ? `${k}×${n}` : k))
    .join(' ');
  return s.trials > 1 ? `${s.passed}/${s.gradable} passed (${statuses})` : statuses;
}

function metricRow(name: string, d: MetricDelta, paint: Paint): string[] {
  const isRate = RATE_METRICS.has(name);
  const fmt = isRate ? pct : name === 'cost_usd' ? usd : num;
  let change = 'n/a';
  if (d.delta !== null) {
    const sign = d.delta >= 0 ? '+' : '-';
    const text = isRate
      ? `${d.delta >= 0 ? '+' : ''}${(d.delta * 100).toFixed(1)} pts`
      : name === 'cost_usd'
        ? `${sign}${usd(Math.abs(d.delta))}`
        : `${d.delta >= 0 ? '+' : ''}${d.delta.toFixed(3)}`;
    const better = LOWER_IS_BETTER.has(name) ? d.delta < 0 : d.delta > 0;
    change = Math.abs(d.delta) < 1e-12 ? '±0' : paint(better ? C.green : C.red, text);
  }
  return [name, fmt(d.baseline), fmt(d.current), change];
}

/** A note on one line, cut to fit a table. */
const short = (text: string, max = 60) => {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const signedPts = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} pts`;

/** A run's lines in the header: its label (bold), folder and version; its note; its agent module. */
function runLines(title: string, r: RunRef, paint: Paint): string[] {
  const label = r.label ? `${paint(C.bold, r.label)}  ` : '';
  const out = [`  ${title.padEnd(8)}  ${label}${r.dir}  (version ${r.version})`];
  if (r.model) out.push(paint(C.dim, `            model ${r.model}`));
  if (r.note) out.push(paint(C.dim, `            note: ${r.note.replace(/\s+/g, ' ')}`));
  if (r.agent_sha256)
    out.push(paint(C.dim, `            agent ${r.agent_module} (sha256 ${r.agent_sha256.slice(0, 12)})`));
  return out;
}

/** The paired difference of pass rates, over the tasks both runs graded. */
function pairedLine(d: PairedDiff): string {
  if (d.n === 0 || d.diff === null) return '  paired    no task graded in both runs';
  const ci = d.ci95 ? ` (95% CI ${signedPts(d.ci95[0])} to ${signedPts(d.ci95[1])})` : ' (one task: no interval)';
  return `  paired    pass rate ${signedPts(d.diff)}${ci} over ${d.n} task(s) graded in both`;
}

function checkRows(checks: CheckDelta[], paint: Paint): string[] {
  const rows = [['check', 'pass rate baseline → run', 'change']];
  for (const k of checks) {
    const change = metricRow('pass_rate', { baseline: k.baseline, current: k.current, delta: k.delta }, paint)[3];
    rows.push([k.name, `${pct(k.baseline)} → ${pct(k.current)}`, change]);
  }
  return table(rows);
}

export function formatComparison(c: Comparison, opts: { color: boolean }): string {
  const paint = painter(opts.color);
  const lines: string[] = [];
  lines.push(paint(C.bold, `compare ${c.current.benchmark} · agent ${c.current.agent}`));
  lines.push(...runLines('baseline', c.baseline, paint), ...runLines('run', c.current, paint));
  if (c.message) lines.push(paint(C.yellow, `  WARNING: ${c.message}`));

  lines.push('', paint(C.bold, 'metrics'));
  const rows = [['metric', 'baseline', 'run', 'change']];
  for (const [name, d] of Object.entries(c.metrics))
    if (name !== 'pass_rate_ci95') rows.push(metricRow(name, d as MetricDelta, paint));
  lines.push(...table(rows));
  // comparisons saved in a report by an older benchrig have neither
  if (c.paired) lines.push(pairedLine(c.paired));
  if (c.checks?.length) lines.push('', paint(C.bold, 'checks'), ...checkRows(c.checks, paint));

  const n = c.counts;
  lines.push('', paint(C.bold, 'tasks') + paint(C.dim, ` (${c.passing_rule})`));
  lines.push(
    `  ${paint(n.regressions ? C.red : C.dim, `regressions ${n.regressions}`)} · ${paint(n.new_failures ? C.red : C.dim, `new failures ${n.new_failures}`)} · ` +
      `${paint(n.fixed ? C.green : C.dim, `fixed ${n.fixed}`)} · persistent ${n.persistent} · ${paint(n.unanswered ? C.yellow : C.dim, `unanswered ${n.unanswered}`)}`,
  );
  lines.push(
    paint(
      C.dim,
      `  still passing ${n.still_passing} · newly passing ${n.new_passing} · not graded now ${n.not_graded} · only in baseline ${n.removed}`,
    ),
  );

  const section = (title: string, colour: string, list: TaskChange[]) => {
    if (list.length === 0) return;
    lines.push('', paint(colour, `${title} (${list.length})`));
    const shown = list.slice(0, LIST_MAX);
    const body = [['task', 'input hash', 'baseline', 'run']];
    for (const t of shown) {
      const renamed = t.before && t.before.sample_id !== t.sample_id ? ` (was ${t.before.sample_id})` : '';
      body.push([`${t.sample_id}${renamed}`, t.input_hash || '-', sideText(t.before), sideText(t.now)]);
    }
    lines.push(...table(body));
    if (list.length > shown.length)
      lines.push(paint(C.dim, `  … and ${list.length - shown.length} more (--json for all)`));
  };
  section('regressions', C.red, c.regressions);
  section('new failures', C.red, c.new_failures);
  section('fixed', C.green, c.fixed);
  section('unanswered (every trial AGENT_ERROR or TIMEOUT: not a regression)', C.yellow, c.unanswered);
  section('persistent failures', C.dim, c.persistent);
  // comparisons saved in a report by an older benchrig have none
  if (c.task_costs?.length) lines.push('', ...costLines(c.task_costs, paint));
  return `${lines.join('\n')}\n`;
}

/** The cost of each task in both runs, largest change first. */
function costLines(costs: TaskCost[], paint: Paint): string[] {
  const shown = costs.slice(0, LIST_MAX);
  const body = [['task', 'baseline', 'run', 'change']];
  for (const t of shown)
    body.push([
      t.sample_id,
      ...metricRow('cost_usd', { baseline: t.baseline, current: t.current, delta: t.delta }, paint).slice(1),
    ]);
  const out = [paint(C.bold, `cost per task (${costs.length}, largest change first)`), ...table(body)];
  if (costs.length > shown.length)
    out.push(paint(C.dim, `  … and ${costs.length - shown.length} more (--json for all)`));
  return out;
}

/** One run's cells of the history table (its label and agent columns only when some run has them). */
function historyCells(r: HistoryRow, show: { label: boolean; agent: boolean }, paint: Paint): string[] {
  const ci = r.pass_rate_ci95 ? ` (${pct(r.pass_rate_ci95[0])}–${pct(r.pass_rate_ci95[1])})` : '';
  const gate = !r.gate
    ? r.trials === null
      ? '-'
      : 'none'
    : paint(r.gate.passed ? C.green : C.red, r.gate.passed ? 'PASSED' : 'FAILED');
  const version = `${r.version ?? '?'}${r.version_changed ? ' *' : ''}`;
  const agent = `${r.agent_sha256 ? r.agent_sha256.slice(0, 12) : '-'}${r.agent_changed ? ' ^' : ''}`;
  const notes = [r.run_note && short(r.run_note), r.note].filter(Boolean).join(' · ');
  return [
    r.name,
    ...(show.label ? [r.label ?? '-'] : []),
    r.version_changed ? paint(C.yellow, version) : version,
    ...(show.agent ? [r.agent_changed ? paint(C.yellow, agent) : agent] : []),
    r.status,
    r.trials === null ? '-' : String(r.trials),
    r.trials === null ? '-' : `${pct(r.pass_rate)}${ci}`,
    r.trials === null ? '-' : num(r.mean_score),
    gate,
    notes ? paint(C.dim, notes) : '',
  ];
}

/**
 * The history of a folder, one table per benchmark identity when it holds runs of more than one
 * folder with this name (docs/benchmarks.md#identity); runs from before identities were recorded go with none.
 */
export function formatHistories(parent: string, rows: HistoryRow[], opts: { color: boolean }): string {
  const ids = [...new Set(rows.map((r) => r.benchmark_id))];
  if (ids.length < 2) return formatHistory(parent, rows, opts);
  return ids
    .map((id) => {
      const mine = rows.filter((r) => r.benchmark_id === id);
      const from = id === null ? 'runs that record no benchmark identity' : `benchmark ${mine[0].benchmark_dir ?? id}`;
      return formatHistory(`${parent}, ${from}`, mine, opts);
    })
    .join('\n\n');
}

export function formatHistory(parent: string, rows: HistoryRow[], opts: { color: boolean }): string {
  const paint = painter(opts.color);
  const lines = [
    paint(C.bold, `history of ${parent} (${rows.length} run${rows.length === 1 ? '' : 's'}, oldest first)`),
  ];
  const show = { label: rows.some((r) => r.label), agent: rows.some((r) => r.agent_sha256 || r.agent_changed) };
  const head = ['run', ...(show.label ? ['label'] : []), 'version', ...(show.agent ? ['agent'] : [])];
  const body = [[...head, 'status', 'trials', 'pass_rate (95% CI)', 'mean_score', 'gate', '']];
  for (const r of rows) body.push(historyCells(r, show, paint));
  lines.push(...table(body));
  if (rows.some((r) => r.agent_changed))
    lines.push(
      paint(
        C.yellow,
        '  ^ WARNING: the agent differs from the run above (another module, or its code or a local import changed; agent = sha256 of the module): these runs are of different agents',
      ),
    );
  if (rows.some((r) => r.version_changed))
    lines.push(
      paint(
        C.dim,
        '  * the benchmark version changed from the run above: numbers across it are not strictly comparable',
      ),
    );
  return `${lines.join('\n')}\n`;
}
