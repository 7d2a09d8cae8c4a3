// The summary printed at the end of a run and by `benchrig report`: headline, gate, per-check pass
// rates, top failures and successes, and a short analysis (analysis.ts).
// Plain text when colour is off (CI logs, pipes): no escape code at all.
import type { EvaluationReport } from './types.ts';
import { TRIAL_STATUSES } from '../types.ts';
import { analyzeReport, comparisonView, type SlowTrial } from './analysis.ts';
import { gateText, missingText } from './gate.ts';
import { meanScoreLabel } from './metrics.ts';

type Paint = (code: string, text: string) => string;

const ANSI = { bold: '1', dim: '2', red: '31', green: '32', yellow: '33' } as const;

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null, digits = 3) => (x === null ? 'n/a' : String(Number(x.toFixed(digits))));

interface SummaryOptions {
  color: boolean;
  /** The slowest trials, read from the result files when the caller has them. */
  slowest?: SlowTrial[] | null;
}

export function formatSummary(report: EvaluationReport, opts: SummaryOptions): string {
  const paint: Paint = opts.color ? (code, text) => `\u001b[${code}m${text}\u001b[0m` : (_code, text) => text;
  const m = report.metrics;
  const lines: string[] = [];

  lines.push(
    paint(
      ANSI.bold,
      `${report.benchmark.name} (${report.benchmark.version}) · agent ${report.agent.id}${report.agent.model && report.metrics.llm_calls.total > 0 ? ` · model ${report.agent.model}` : ''} · run ${report.run.id}`,
    ),
  );
  if (report.run.label) lines.push(`label      ${paint(ANSI.bold, report.run.label)}`);
  if (report.run.note) lines.push(`note       ${report.run.note.replace(/\s+/g, ' ')}`);
  if (report.agent.sha256) lines.push(`agent      ${report.agent.module} (sha256 ${report.agent.sha256.slice(0, 12)})`);

  const ci = m.pass_rate_ci95 ? ` (95% CI ${pct(m.pass_rate_ci95[0])}–${pct(m.pass_rate_ci95[1])})` : '';
  const rate = m.pass_rate === null ? 'n/a (nothing gradable)' : `${pct(m.pass_rate)}${ci}`;
  lines.push(
    `pass rate  ${paint(ANSI.bold, rate)}   mean score ${num(m.mean_score)}   ${m.n_passed}/${m.n_gradable} gradable trials passed`,
  );
  const missing = missingText(m);
  if (missing) lines.push(`missing    ${paint(ANSI.yellow, missing)}: not in the pass rate`);
  if (report.run.trials > 1) {
    lines.push(
      `per task   pass@${report.run.trials} ${pct(m.pass_at_k)}   pass^${report.run.trials} ${pct(m.pass_all_k)}   over ${m.n_tasks} task(s)`,
    );
  }

  const counts = TRIAL_STATUSES.filter((s) => m.status_counts[s] > 0).map((s) => {
    const colour = s === 'PASSED' ? ANSI.green : s === 'FAILED' ? ANSI.red : ANSI.yellow;
    return `${paint(colour, s)} ${m.status_counts[s]}`;
  });
  lines.push(`trials     ${m.n_trials}${counts.length ? `: ${counts.join(', ')}` : ''}`);

  const g = report.gate;
  if (!g) lines.push('gate       none');
  else {
    const verdict = g.passed ? paint(ANSI.green, 'PASSED') : paint(ANSI.red, 'FAILED');
    lines.push(`gate       ${verdict} ${gateText(g, (x) => num(x))}`);
  }

  if (report.checks.length > 0) {
    lines.push('', paint(ANSI.bold, 'checks'));
    const width = Math.min(40, Math.max(...report.checks.map((c) => `${c.name} (${c.type})`.length)));
    for (const c of report.checks) {
      const label = `${c.name} (${c.type})`.padEnd(width);
      const passed = c.pass_rate === null ? 0 : Math.round(c.pass_rate * c.n_gradable);
      const mean = c.mean_score === undefined ? '' : `  ${meanScoreLabel(c.type)} ${num(c.mean_score)}`;
      lines.push(`  ${label}  ${pct(c.pass_rate).padStart(6)}  ${passed}/${c.n_gradable}${mean}`);
    }
  }

  if (report.top_failures.length > 0) {
    lines.push('', paint(ANSI.bold, 'top failures'));
    const w = columnWidth(report.top_failures);
    for (const f of report.top_failures) {
      const status = paint(f.status === 'FAILED' ? ANSI.red : ANSI.yellow, f.status.padEnd(15));
      lines.push(`  ${oneLine(f.task_id, 40).padEnd(w)}  ${status}  ${paint(ANSI.dim, oneLine(f.reason))}`);
    }
  }
  if (report.top_successes.length > 0) {
    lines.push('', paint(ANSI.bold, 'top successes'));
    const shown = report.top_successes.slice(0, 5);
    const w = columnWidth(shown);
    for (const t of shown)
      lines.push(
        `  ${oneLine(t.task_id, 40).padEnd(w)}  ${paint(ANSI.green, t.status)}  ${paint(ANSI.dim, oneLine(t.reason))}`,
      );
  }
  lines.push(...analysisLines(report, opts.slowest ?? report.slowest_trials ?? null, paint));
  lines.push(...hostLines(report, paint));
  lines.push(...comparisonLines(report.comparison, paint));
  return `${lines.join('\n')}\n`;
}

const LIST_MAX = 8;
const listed = (items: string[]) =>
  items
    .slice(0, LIST_MAX)
    .map((i) => oneLine(i, 40))
    .join(', ') + (items.length > LIST_MAX ? `, … (${items.length - LIST_MAX} more)` : '');
const secs = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(x < 10 ? 2 : 1)}s`);
const counts = (pairs: Array<[string, number]>) => pairs.map(([k, n]) => `${oneLine(k, 40)} ${n}`).join(', ');

function analysisLines(report: EvaluationReport, slowest: SlowTrial[] | null, paint: Paint): string[] {
  const a = analyzeReport(report, slowest);
  const out = ['', paint(ANSI.bold, 'analysis')];
  const row = (label: string, text: string) => out.push(`  ${label.padEnd(13)}${text}`);
  if (a.failingChecks.length > 0) {
    row(
      'failing most',
      a.failingChecks
        .slice(0, 3)
        .map((c) => `${oneLine(c.name, 40)} (${c.failed}/${c.n_gradable} failed)`)
        .join(', '),
    );
  }
  if (a.flakyTasks.length > 0) row('flaky tasks', `${a.flakyTasks.length}: ${listed(a.flakyTasks)}`);
  if (a.errorKinds.length > 0) row('errors', paint(ANSI.yellow, counts(a.errorKinds)));
  if (a.stopReasons.length > 0) row('stop reasons', counts(a.stopReasons));
  row('time', `mean ${secs(a.time.mean)}  p50 ${secs(a.time.p50)}  p95 ${secs(a.time.p95)}  max ${secs(a.time.max)}`);
  if (a.slowest && a.slowest.length > 0)
    row(
      'slowest',
      a.slowest.map((t) => `${oneLine(t.task_id, 40)} ${secs(t.execution_time_s)} (${t.status})`).join(', '),
    );
  const cost = a.costUsd === null ? '' : `, cost $${a.costUsd.toFixed(4)}`;
  const unpriced = a.unpricedModels.length
    ? `; no price for model ${a.unpricedModels.join(', ')} (its trials' cost is null: set [llm] price)`
    : '';
  const user = a.llmCalls.user_total > 0 ? ` (+${a.llmCalls.user_total} by the simulated user)` : '';
  row(
    'llm',
    `${a.llmCalls.total} call(s)${user}, tokens ${a.tokens.input} in / ${a.tokens.output} out${cost}${unpriced}`,
  );
  return out;
}

/** What a fleet run's report says per Docker host (the `hosts` key; absent without a fleet). */
interface HostCounts {
  trials?: number;
  infra_errors?: number;
  cooldowns?: number;
}

function hostLines(report: EvaluationReport, paint: Paint): string[] {
  const hosts = (report as { hosts?: Record<string, HostCounts> }).hosts;
  if (!hosts || typeof hosts !== 'object' || Object.keys(hosts).length === 0) return [];
  const out = ['', paint(ANSI.bold, 'hosts')];
  const w = Math.max(...Object.keys(hosts).map((url) => oneLine(url, 60).length));
  for (const [url, h] of Object.entries(hosts)) {
    const bad = (label: string, n = 0) => (n > 0 ? paint(ANSI.yellow, `${label} ${n}`) : `${label} ${n}`);
    out.push(
      `  ${oneLine(url, 60).padEnd(w)}  trials ${h.trials ?? 0}   ${bad('infra errors', h.infra_errors)}   ${bad('cool-downs', h.cooldowns)}`,
    );
  }
  return out;
}

function comparisonLines(comparison: unknown, paint: Paint): string[] {
  const c = comparisonView(comparison);
  if (!c) return [];
  const out = ['', paint(ANSI.bold, `compared with ${c.baseline ? oneLine(c.baseline, 100) : 'the baseline'}`)];
  if (c.message) out.push(`  ${paint(ANSI.yellow, oneLine(c.message))}`);
  for (const l of c.lists) {
    if (l.items.length === 0) continue;
    const colour =
      l.key === 'fixed' ? ANSI.green : l.key === 'regressions' || l.key === 'new_failures' ? ANSI.red : ANSI.yellow;
    out.push(`  ${paint(colour, l.label.padEnd(20))} ${l.items.length}: ${listed(l.items)}`);
  }
  if (out.length === (c.message ? 3 : 2)) out.push('  no changes');
  return out;
}

/** Reasons can hold command output (with its own colours): one plain line, bounded. */
function oneLine(text: string, max = 120): string {
  /* eslint-disable no-control-regex -- ANSI escapes and control characters are what this strips */
  const s = text
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  /* eslint-enable no-control-regex */
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

const columnWidth = (entries: Array<{ task_id: string }>) =>
  Math.max(...entries.map((e) => oneLine(e.task_id, 40).length));
