// Comparison of two runs (docs/reports.md#metrics): tasks are matched by the hash of their input, never by row id,
// so renumbered or reordered datasets still compare. Pure: two reports in, one comparison out.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { ERROR_STATUSES, TRIAL_STATUSES, type TrialStatus } from '../types.ts';
import { agentModulesNote, checkDeltas, type CheckDelta } from './compare-checks.ts';
import { pairedDifference, type PairedDiff } from './paired.ts';
import type { EvaluationReport, Metrics, TaskStats } from './types.ts';

/**
 * Where a task stands in one run.
 * - passing: it has a gradable trial and every gradable trial passed (pass_all_k semantics:
 *   a task that passed 2 of 3 trials is not passing).
 * - unanswered: every trial is AGENT_ERROR or TIMEOUT: the agent never answered, which is an
 *   outage rather than a regression.
 * - failing: some gradable trial failed (and it is not unanswered).
 * - not_graded: no gradable trial (SANDBOX_ERROR, MODEL_ERROR, UNGRADABLE, AWAITING_REVIEW only): no evidence.
 */
export type TaskState = 'passing' | 'failing' | 'unanswered' | 'not_graded';

const PASSING_RULE = 'a task passes when it has a gradable trial and every gradable trial passed (pass_all_k)';

export interface TaskSide {
  sample_id: string;
  state: TaskState;
  passed: number;
  gradable: number;
  trials: number;
  statuses: Partial<Record<TrialStatus, number>>;
  /** The sum of its trials' cost; null when none has one. */
  cost_usd: number | null;
}

/** One task's cost in both runs (docs/reports.md#compare). */
export interface TaskCost {
  input_hash: string;
  sample_id: string;
  baseline: number | null;
  current: number | null;
  /** current − baseline; null when either side has no cost. */
  delta: number | null;
}

export interface TaskChange {
  input_hash: string;
  sample_id: string;
  before: TaskSide | null;
  now: TaskSide;
}

export interface MetricDelta {
  baseline: number | null;
  current: number | null;
  /** current − baseline; null when either side has no value. */
  delta: number | null;
}

export const COMPARED_METRICS = [
  'pass_rate',
  'pass_all_k',
  'pass_at_k',
  'mean_score',
  'agent_error_rate',
  'timeout_rate',
  'ungradable_rate',
  'infra_error_rate',
  'cost_usd',
] as const satisfies ReadonlyArray<keyof Metrics>;

export interface RunRef {
  id: string;
  dir: string;
  benchmark: string;
  version: string;
  agent: string;
  started_at: string;
  /** `run --label` and `--note`; null when not given. */
  label: string | null;
  note: string | null;
  /** The agent module's path and hash (run.json); null for a built-in agent or an older run. */
  agent_module: string | null;
  agent_sha256: string | null;
  /** The agent's model ([llm] model); null when none was set or the report predates it. */
  model: string | null;
}

// A type, not an interface: it is what a report's `comparison` record holds.
export type Comparison = {
  baseline: RunRef;
  current: RunRef;
  versions_differ: boolean;
  /** Says loudly what makes the two runs less comparable (versions, benchmarks); null when nothing. */
  message: string | null;
  passing_rule: string;
  /** One agent id, two different agent modules (paths or content): the runs are of different agents. */
  agent_modules_differ: boolean;
  metrics: Record<(typeof COMPARED_METRICS)[number], MetricDelta> & {
    pass_rate_ci95: { baseline: [number, number] | null; current: [number, number] | null };
  };
  /** The run's pass rate minus the baseline's, paired over the tasks both graded (paired.ts). */
  paired: PairedDiff;
  /** Each check's pass rate in both runs (matched by name) and the change. */
  checks: CheckDelta[];
  counts: {
    new_failures: number;
    regressions: number;
    fixed: number;
    persistent: number;
    unanswered: number;
    still_passing: number;
    new_passing: number;
    not_graded: number;
    removed: number;
  };
  /** Failing now, absent (or without a gradable trial) in the baseline. */
  new_failures: TaskChange[];
  /** Passing in the baseline, failing now. */
  regressions: TaskChange[];
  /** Failing (or unanswered) in the baseline, passing now. */
  fixed: TaskChange[];
  /** Failing (or unanswered) in both. */
  persistent: TaskChange[];
  /** Every trial now AGENT_ERROR or TIMEOUT: not counted as a regression. */
  unanswered: TaskChange[];
  /** In the baseline only (input hashes). */
  removed: Array<{ input_hash: string; sample_id: string }>;
  /** Every task of the run with a cost in either run: the largest change first, then the costliest. */
  task_costs: TaskCost[];
};

const ANSWERLESS: ReadonlySet<string> = new Set(['AGENT_ERROR', 'TIMEOUT']);

export function taskState(t: Pick<TaskStats, 'trials' | 'passed' | 'gradable' | 'statuses'>): TaskState {
  const entries = Object.entries(t.statuses).filter(([, n]) => (n ?? 0) > 0);
  if (entries.length > 0 && entries.every(([s]) => ANSWERLESS.has(s))) return 'unanswered';
  if (t.gradable === 0) return 'not_graded';
  return t.passed === t.gradable ? 'passing' : 'failing';
}

const side = (t: TaskStats): TaskSide => ({
  sample_id: t.sample_id,
  state: taskState(t),
  passed: t.passed,
  gradable: t.gradable,
  trials: t.trials,
  statuses: { ...t.statuses },
  cost_usd: t.cost_usd ?? null,
});

/** The tasks' costs side by side, largest change (then largest cost) first; none when no task has one. */
function taskCosts(pairs: Array<[TaskStats | null, TaskStats]>): TaskCost[] {
  const out: TaskCost[] = [];
  for (const [b, c] of pairs) {
    const baseline = b?.cost_usd ?? null;
    const current = c.cost_usd ?? null;
    if (baseline === null && current === null) continue;
    const d = delta(baseline, current).delta;
    out.push({ input_hash: c.input_hash, sample_id: c.sample_id, baseline, current, delta: d });
  }
  const size = (t: TaskCost) => Math.abs(t.delta ?? 0);
  return out.sort((x, y) => size(y) - size(x) || (y.current ?? y.baseline ?? 0) - (x.current ?? x.baseline ?? 0));
}

/** Results without an input hash (older files) fall back to their sample id. */
const keyOf = (t: TaskStats) => (t.input_hash ? t.input_hash : `id:${t.sample_id}`);

/**
 * Pairs tasks by input hash. Two samples may share an input (same question, different checks):
 * within one hash, tasks with the same sample id pair first, the rest in order.
 */
export function matchTasks(
  base: TaskStats[],
  cur: TaskStats[],
): { pairs: Array<[TaskStats | null, TaskStats]>; removed: TaskStats[] } {
  const byKey = new Map<string, TaskStats[]>();
  for (const t of base) {
    const list = byKey.get(keyOf(t));
    if (list) list.push(t);
    else byKey.set(keyOf(t), [t]);
  }
  const pairs: Array<[TaskStats | null, TaskStats]> = [];
  const pending: TaskStats[] = [];
  for (const t of cur) {
    const list = byKey.get(keyOf(t));
    const i = list?.findIndex((b) => b.sample_id === t.sample_id) ?? -1;
    if (list && i >= 0) pairs.push([list.splice(i, 1)[0], t]);
    else pending.push(t);
  }
  for (const t of pending) pairs.push([byKey.get(keyOf(t))?.shift() ?? null, t]);
  return { pairs, removed: [...byKey.values()].flat() };
}

/** Why a run cannot be a baseline (docs/reports.md#metrics: a run the agent answered nothing in), or null. */
export function answeredNothing(report: EvaluationReport): string | null {
  const m = report.metrics;
  if (m.n_trials === 0) return 'it has no trials';
  const c = m.status_counts;
  const errors = TRIAL_STATUSES.filter((s) => ERROR_STATUSES.has(s));
  const outage = errors.reduce((n, s) => n + (c[s] ?? 0), 0);
  if (outage === m.n_trials) {
    const parts = errors.filter((s) => c[s] > 0).map((s) => `${c[s]} ${s}`);
    return `the agent answered nothing (every trial an error: ${parts.join(', ')})`;
  }
  if (m.pass_rate === null) return 'nothing in it was gradable (pass_rate is null)';
  return null;
}

const runRef = (r: EvaluationReport): RunRef => ({
  id: r.run.id,
  dir: r.run.dir,
  benchmark: r.benchmark.name,
  version: r.benchmark.version,
  agent: r.agent.id,
  started_at: r.run.started_at,
  label: r.run.label ?? null,
  note: r.run.note ?? null,
  agent_module: r.agent.module ?? null,
  agent_sha256: r.agent.sha256 ?? null,
  model: r.agent.model ?? null,
});

/** Pass fractions of the tasks graded in both runs, [baseline, current]: what the paired difference is over. */
function gradedPairs(pairs: Array<[TaskStats | null, TaskStats]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [b, c] of pairs)
    if (b && b.gradable > 0 && c.gradable > 0) out.push([b.passed / b.gradable, c.passed / c.gradable]);
  return out;
}

function delta(a: number | null, b: number | null): MetricDelta {
  return { baseline: a, current: b, delta: a === null || b === null ? null : b - a };
}

export function compareReports(baseline: EvaluationReport, current: EvaluationReport): Comparison {
  const versionsDiffer = baseline.benchmark.version !== current.benchmark.version;
  const notes: string[] = [];
  if (baseline.benchmark.name !== current.benchmark.name)
    notes.push(`different benchmarks: "${baseline.benchmark.name}" vs "${current.benchmark.name}"`);
  if (versionsDiffer)
    notes.push(
      `benchmark versions differ (${baseline.benchmark.version} → ${current.benchmark.version}): checks, limits or samples changed, so the numbers are not strictly comparable`,
    );
  const modules = agentModulesNote([baseline, current]);
  if (modules) notes.push(modules);

  const metrics = {
    ...Object.fromEntries(COMPARED_METRICS.map((k) => [k, delta(baseline.metrics[k], current.metrics[k])])),
    pass_rate_ci95: { baseline: baseline.metrics.pass_rate_ci95, current: current.metrics.pass_rate_ci95 },
  } as unknown as Comparison['metrics'];

  const out: Pick<Comparison, 'new_failures' | 'regressions' | 'fixed' | 'persistent' | 'unanswered'> = {
    new_failures: [],
    regressions: [],
    fixed: [],
    persistent: [],
    unanswered: [],
  };
  let stillPassing = 0;
  let newPassing = 0;
  let notGraded = 0;
  const { pairs, removed } = matchTasks(baseline.tasks, current.tasks);
  for (const [b, c] of pairs) {
    const now = side(c);
    const before = b ? side(b) : null;
    const change: TaskChange = { input_hash: c.input_hash, sample_id: c.sample_id, before, now };
    const was = before?.state ?? 'absent';
    if (now.state === 'unanswered') out.unanswered.push(change);
    else if (now.state === 'not_graded') notGraded++;
    else if (now.state === 'failing') {
      if (was === 'passing') out.regressions.push(change);
      else if (was === 'failing' || was === 'unanswered') out.persistent.push(change);
      else out.new_failures.push(change); // absent before, or no gradable trial before
    } else if (was === 'failing' || was === 'unanswered') out.fixed.push(change);
    else if (was === 'passing') stillPassing++;
    else newPassing++;
  }

  return {
    baseline: runRef(baseline),
    current: runRef(current),
    versions_differ: versionsDiffer,
    message: notes.length ? notes.join('; ') : null,
    passing_rule: PASSING_RULE,
    agent_modules_differ: modules !== null,
    metrics,
    paired: pairedDifference(gradedPairs(pairs)),
    checks: checkDeltas(baseline.checks, current.checks),
    counts: {
      new_failures: out.new_failures.length,
      regressions: out.regressions.length,
      fixed: out.fixed.length,
      persistent: out.persistent.length,
      unanswered: out.unanswered.length,
      still_passing: stillPassing,
      new_passing: newPassing,
      not_graded: notGraded,
      removed: removed.length,
    },
    ...out,
    removed: removed.map((t) => ({ input_hash: t.input_hash, sample_id: t.sample_id })),
    task_costs: taskCosts(pairs),
  };
}

/** A run folder's evaluation_report.json; a folder without one is a usage error naming it. */
export async function loadRunReport(runDir: string): Promise<EvaluationReport> {
  const path = join(runDir, 'evaluation_report.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new BenchrigError(
        'usage',
        `${runDir}: no evaluation_report.json (not a run folder, or an unfinished run: try \`benchrig evaluate ${runDir}\`)`,
      );
    throw err;
  }
  try {
    return JSON.parse(text) as EvaluationReport;
  } catch (err) {
    throw new BenchrigError('usage', `${path}: not valid JSON (${(err as Error).message})`);
  }
}

/** The baseline report of a run folder given by the user, refused when the agent answered nothing there. */
export async function loadBaselineReport(runDir: string): Promise<EvaluationReport> {
  const report = await loadRunReport(runDir);
  const why = answeredNothing(report);
  if (why) throw new BenchrigError('usage', `${runDir} cannot be the baseline: ${why}`);
  return report;
}
