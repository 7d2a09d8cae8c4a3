// A short reading of a run for people: which checks fail most, which tasks are flaky, what went
// wrong (error kinds, stop reasons), what was slow and what it cost. Pure over the report, plus an
// optional list of the slowest trials read from the result files (the report keeps no per-trial times).
import { describe } from '../errors.ts';
import type { TrialResult } from '../types.ts';
import type { EvaluationReport, TimeStats } from './types.ts';

export interface SlowTrial {
  task_id: string;
  status: string;
  execution_time_s: number;
}

interface FailingCheck {
  name: string;
  type: string;
  failed: number;
  n_gradable: number;
  pass_rate: number | null;
}

interface RunAnalysis {
  /** Checks with at least one failure, most failures first. */
  failingChecks: FailingCheck[];
  /** Sample ids with both passes and failures among their trials. */
  flakyTasks: string[];
  errorKinds: Array<[string, number]>;
  stopReasons: Array<[string, number]>;
  time: TimeStats;
  /** Null when the result files were not read. */
  slowest: SlowTrial[] | null;
  llmCalls: { total: number; user_total: number };
  tokens: { input: number; output: number };
  costUsd: number | null;
  /** Models without a price (docs/agents.md#cost). */
  unpricedModels: string[];
}

const byCount = (m: Record<string, number>): Array<[string, number]> =>
  Object.entries(m).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

export function analyzeReport(report: EvaluationReport, slowest: SlowTrial[] | null = null): RunAnalysis {
  const m = report.metrics;
  const failingChecks = report.checks
    .map((c) => {
      const passed = c.pass_rate === null ? 0 : Math.round(c.pass_rate * c.n_gradable);
      return {
        name: c.name,
        type: c.type,
        failed: c.n_gradable - passed,
        n_gradable: c.n_gradable,
        pass_rate: c.pass_rate,
      };
    })
    .filter((c) => c.failed > 0)
    .sort((a, b) => b.failed - a.failed || (a.pass_rate ?? 0) - (b.pass_rate ?? 0) || (a.name < b.name ? -1 : 1));
  return {
    failingChecks,
    flakyTasks: report.tasks.filter((t) => t.flaky).map((t) => t.sample_id),
    errorKinds: byCount(m.error_kinds),
    stopReasons: byCount(m.stop_reasons),
    time: m.execution_time_s,
    slowest,
    llmCalls: { total: m.llm_calls.total, user_total: m.llm_calls.user_total },
    tokens: m.tokens,
    costUsd: m.cost_usd,
    unpricedModels: m.unpriced_models ?? [],
  };
}

/** Whether a trial would enter the `n` slowest of `list` (asked before its entry is made). */
export function wouldBeSlowest(list: SlowTrial[], taskId: string, time: unknown, n = 5): time is number {
  if (typeof time !== 'number' || !Number.isFinite(time)) return false;
  const last = list[n - 1];
  return !(
    list.length >= n &&
    (time < last.execution_time_s || (time === last.execution_time_s && taskId > last.task_id))
  );
}

/** Keeps `list` the `n` slowest trials offered so far (ties by task id, for stable output). */
export function offerSlowest(list: SlowTrial[], t: SlowTrial, n = 5): void {
  if (!wouldBeSlowest(list, t.task_id, t.execution_time_s, n)) return;
  list.push(t);
  list.sort((a, b) => b.execution_time_s - a.execution_time_s || (a.task_id < b.task_id ? -1 : 1));
  if (list.length > n) list.pop();
}

/** The `n` slowest trials, streaming: never more than `n` kept. */
export async function slowestTrials(
  results: Iterable<TrialResult> | AsyncIterable<TrialResult>,
  n = 5,
): Promise<SlowTrial[]> {
  const top: SlowTrial[] = [];
  for await (const r of results)
    offerSlowest(top, { task_id: r.task_id, status: r.status, execution_time_s: r.metadata?.execution_time_s }, n);
  return top;
}

const COMPARISON_LISTS = [
  ['new_failures', 'new failures'],
  ['regressions', 'regressions'],
  ['fixed', 'fixed'],
  ['persistent', 'persistent failures'],
  ['unanswered', 'unanswered'],
] as const;

interface ComparisonView {
  baseline: string | null;
  message: string | null;
  lists: Array<{ key: string; label: string; items: string[] }>;
}

/**
 * The report's `comparison` (filled by `--baseline`/compare), read defensively: whatever its exact
 * shape, the lists of new failures, regressions and fixed tasks become lists of sample ids.
 */
export function comparisonView(comparison: unknown): ComparisonView | null {
  if (!comparison || typeof comparison !== 'object') return null;
  const c = comparison as Record<string, unknown>;
  // An item of a list: a sample id, or an object naming one (read through ?., whatever it is).
  type Item =
    { sample_id?: unknown; task_id?: unknown; now?: { sample_id?: unknown }; input_hash?: unknown } | null | undefined;
  const name = (x: unknown): string => {
    if (typeof x === 'string') return x;
    const i = x as Item;
    return describe(i?.sample_id ?? i?.task_id ?? i?.now?.sample_id ?? i?.input_hash ?? JSON.stringify(x));
  };
  const lists = COMPARISON_LISTS.map(([key, label]) => {
    const items = c[key];
    return { key, label, items: Array.isArray(items) ? items.map(name) : [] };
  });
  const base = c.baseline;
  const named = base as { dir?: unknown; id?: unknown } | null;
  const baseline =
    typeof base === 'string'
      ? base
      : named && typeof base === 'object'
        ? describe(named.dir ?? named.id ?? '') || null
        : null;
  return { baseline, message: typeof c.message === 'string' ? c.message : null, lists };
}
